// One request to the guardian process over its IPC channel, and its answer.
import type { ChildProcess } from 'node:child_process';
import type { z } from 'zod';

/**
 * Sends `request` to the guardian and resolves with the first message that
 * `answer` parses; rejects if the guardian exits first.
 *
 * @example
 * const answer = await askGuardian(guardian, { type: 'recover' }, GuardianRecoverAnswer);
 */
export function askGuardian<Answer extends z.ZodType>(
  guardian: ChildProcess,
  request: object,
  answer: Answer,
): Promise<z.output<Answer>> {
  if (guardian.exitCode !== null || guardian.signalCode !== null) {
    return Promise.reject(new Error('The PostgreSQL guardian is gone.'));
  }
  return new Promise((resolve, reject) => {
    // The answer must arrive even if nothing else keeps this process alive.
    guardian.channel?.ref();
    const onExit = () => {
      settle();
      reject(new Error('The PostgreSQL guardian exited before it answered.'));
    };
    const onMessage = (message: unknown) => {
      const parsed = answer.safeParse(message);
      if (!parsed.success) return;
      settle();
      resolve(parsed.data);
    };
    const settle = () => {
      guardian.off('message', onMessage);
      guardian.off('exit', onExit);
      guardian.channel?.unref();
    };
    guardian.on('message', onMessage);
    guardian.once('exit', onExit);
    guardian.send(request);
  });
}
