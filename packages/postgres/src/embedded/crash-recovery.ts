// An embedded server that dies on its own (a crash, a SIGKILL from outside)
// stays down until its owner starts it again: the guardian reports the death
// and starts the server when asked, and the owner decides when (the
// supervisor with its restart policy, as for any process it runs).
import type { ChildProcess } from 'node:child_process';
import { z } from 'zod';
import { askGuardian } from './ask-guardian.js';

/**
 * How the owner of an embedded server keeps it running: it hears when the
 * server dies on its own and starts it again, when its own policy says so.
 */
export interface CrashRecovery {
  /** The running postmaster's pid; undefined while the server is down. */
  readonly pid: number | undefined;
  /**
   * Calls `listener` each time the postmaster exits on its own (a crash, a
   * SIGKILL from outside); never for stop() or the lab's restart(). The
   * server stays down until recover().
   */
  onCrash(listener: (crash: PostgresCrash) => void): void;
  /**
   * Starts a crashed server again on the same port and data directory;
   * PostgreSQL replays its WAL first (crash recovery). Resolves once it
   * accepts connections; rejects if it could not start (yet), and may be
   * called again.
   */
  recover(): Promise<PostgresRecovery>;
}

/** A postmaster that exited on its own. */
export interface PostgresCrash {
  readonly pid: number;
  readonly code: number | null;
  readonly signal: string | null;
}

/** The postmaster that took over after a crash, and when it accepted connections. */
export interface PostgresRecovery {
  readonly pid: number;
  readonly startedAt: string;
}

const GuardianCrashed = z.object({
  type: z.literal('crashed'),
  pid: z.number().int(),
  code: z.number().int().nullable(),
  signal: z.string().nullable(),
});

/** Any answer that names the postmaster now running: after a recovery or the lab's restart. */
const GuardianStarted = z.object({
  type: z.enum(['recovered', 'restarted']),
  pid: z.number().int().positive(),
});

const GuardianRecoverAnswer = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('recovered'),
    pid: z.number().int().positive(),
    startedAt: z.string(),
  }),
  z.object({ type: z.literal('recover-failed'), message: z.string() }),
]);

/**
 * The crash side of the guardian's protocol (guardian.mjs), for the server it
 * started with postmaster `pid`.
 *
 * @example
 * server.crashRecovery.onCrash(() => void server.crashRecovery.recover());
 */
export function crashRecovery(guardian: ChildProcess, pid: number): CrashRecovery {
  let running: number | undefined = pid;
  const listeners: ((crash: PostgresCrash) => void)[] = [];
  guardian.on('message', (message: unknown) => {
    const crashed = GuardianCrashed.safeParse(message);
    if (crashed.success) {
      running = undefined;
      const { pid: crashedPid, code, signal } = crashed.data;
      for (const listener of listeners) listener({ pid: crashedPid, code, signal });
      return;
    }
    const started = GuardianStarted.safeParse(message);
    if (started.success) running = started.data.pid;
  });
  return {
    get pid() {
      return running;
    },
    onCrash(listener) {
      listeners.push(listener);
    },
    async recover() {
      const answer = await askGuardian(guardian, { type: 'recover' }, GuardianRecoverAnswer);
      if (answer.type === 'recover-failed') {
        throw new Error(`PostgreSQL did not start again: ${answer.message}`);
      }
      return answer;
    },
  };
}
