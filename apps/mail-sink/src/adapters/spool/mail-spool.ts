// What makes the sink a mail server a crash cannot fool: a message is appended
// to a spool file and flushed to disk before SMTP answers 250. After "250 OK"
// a mail server owns the message; a sink that forgot it on SIGKILL would
// report an email the notification service really delivered as never sent,
// and the soak would blame the service for the sink's amnesia.
import { open, readFile, truncate, type FileHandle } from 'node:fs/promises';
import { z } from 'zod';
import type { IncomingEmail } from '../../domain/mailbox.js';

const SpooledEmail = z.object({
  receivedAt: z.iso.datetime(),
  email: z.object({
    messageId: z.string(),
    from: z.string(),
    to: z.array(z.string()),
    subject: z.string(),
    text: z.string(),
    orderId: z.string().nullable(),
  }),
});

export interface Recovered {
  readonly email: IncomingEmail;
  readonly receivedAt: Date;
}

export interface MailSpool {
  /** Resolves once the message is on disk: only then may SMTP say 250. */
  append(email: IncomingEmail, receivedAt: Date): Promise<void>;
  close(): Promise<void>;
}

function isMissing(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT';
}

/**
 * Reads what the file holds, drops a torn last line (a crash in the middle of
 * an append, which was never answered 250), and opens it for appending.
 *
 * @example
 * const { spool, recovered } = await openMailSpool('/tmp/stack/mail-spool.jsonl');
 * for (const { email, receivedAt } of recovered) mailbox.receive(email, receivedAt);
 */
export async function openMailSpool(
  file: string,
): Promise<{ spool: MailSpool; recovered: Recovered[] }> {
  const content = await readFile(file, 'utf8').catch((error: unknown) => {
    if (isMissing(error)) return '';
    throw error;
  });
  const complete = content.slice(0, content.lastIndexOf('\n') + 1);
  if (complete.length !== content.length) await truncate(file, Buffer.byteLength(complete));
  const recovered = complete
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line, index) => {
      const parsed = SpooledEmail.safeParse(JSON.parse(line));
      if (!parsed.success) {
        throw new Error(
          `${file}:${String(index + 1)} is not a spooled email: ${parsed.error.message}`,
        );
      }
      return { email: parsed.data.email, receivedAt: new Date(parsed.data.receivedAt) };
    });
  const handle: FileHandle = await open(file, 'a');
  // One append at a time, so lines never interleave and each flush covers its own line.
  let queue: Promise<void> = Promise.resolve();
  return {
    recovered,
    spool: {
      append: (email, receivedAt) => {
        const line = `${JSON.stringify({ receivedAt: receivedAt.toISOString(), email })}\n`;
        const appended = queue.then(async () => {
          await handle.appendFile(line);
          await handle.datasync();
        });
        queue = appended.catch(() => undefined);
        return appended;
      },
      close: async () => {
        await queue;
        await handle.close();
      },
    },
  };
}
