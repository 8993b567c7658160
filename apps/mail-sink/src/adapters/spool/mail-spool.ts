// What makes the sink a mail server a crash cannot fool: a message is appended
// to a spool file and flushed to disk before SMTP answers 250. After "250 OK"
// a mail server owns the message; a sink that forgot it on SIGKILL would
// report an email the notification service really delivered as never sent,
// and the soak would blame the service for the sink's amnesia.
import { open, readFile, rename, truncate, writeFile, type FileHandle } from 'node:fs/promises';
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

function parseLine(file: string, line: string, index: number): Recovered {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (error) {
    throw new Error(`${file}:${String(index + 1)} is not JSON: ${String(error)}`, { cause: error });
  }
  const parsed = SpooledEmail.safeParse(json);
  if (!parsed.success) {
    throw new Error(`${file}:${String(index + 1)} is not a spooled email: ${parsed.error.message}`);
  }
  return { email: parsed.data.email, receivedAt: new Date(parsed.data.receivedAt) };
}

/** Writes the kept lines to a new file and moves it over the old one: a crash leaves one or the other. */
async function compact(file: string, lines: readonly string[]): Promise<void> {
  const temporary = `${file}.compacting`;
  await writeFile(temporary, lines.map((line) => `${line}\n`).join(''));
  await rename(temporary, file);
}

/**
 * Reads what the file holds, drops a torn last line (a crash in the middle of
 * an append, which was never answered 250), keeps only the last `capacity`
 * messages (what the mailbox keeps; the file is rewritten when it held more,
 * so it does not grow across restarts), and opens it for appending.
 *
 * @example
 * const { spool, recovered } = await openMailSpool('/tmp/stack/mail-spool.jsonl', { capacity: 10_000 });
 * for (const { email, receivedAt } of recovered) mailbox.receive(email, receivedAt);
 */
export async function openMailSpool(
  file: string,
  options: { capacity: number },
): Promise<{ spool: MailSpool; recovered: Recovered[] }> {
  const content = await readFile(file, 'utf8').catch((error: unknown) => {
    if (isMissing(error)) return '';
    throw error;
  });
  const complete = content.slice(0, content.lastIndexOf('\n') + 1);
  if (complete.length !== content.length) await truncate(file, Buffer.byteLength(complete));
  const lines = complete.split('\n').filter((line) => line.length > 0);
  const recovered = lines.map((line, index) => parseLine(file, line, index));
  if (lines.length > options.capacity) await compact(file, lines.slice(-options.capacity));
  const handle: FileHandle = await open(file, 'a');
  let size = (await handle.stat()).size;
  // One append at a time, so lines never interleave and each flush covers its own line.
  let queue: Promise<void> = Promise.resolve();
  return {
    recovered: recovered.slice(-options.capacity),
    spool: {
      append: (email, receivedAt) => {
        const line = `${JSON.stringify({ receivedAt: receivedAt.toISOString(), email })}\n`;
        const appended = queue.then(async () => {
          try {
            await handle.appendFile(line);
            await handle.datasync();
            size += Buffer.byteLength(line);
          } catch (error) {
            // A part written (the disk full) would glue the next line onto it: cut it off.
            await handle.truncate(size).catch(() => undefined);
            throw error;
          }
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
