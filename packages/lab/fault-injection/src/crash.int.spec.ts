// The crash fault in a real child process: it dies by SIGKILL at the point,
// after journaling the crash and logging a fatal line, and PostgreSQL rolls
// back the transaction it left open (the marker and the business change).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import {
  findMarker,
  idempotencyMigrations,
  type IdempotencyTables,
} from '@effectively-once/idempotency';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readJournal } from './journal.repository.js';
import type { LabTables } from './lab.tables.js';

const CHILD = fileURLToPath(new URL('./testing/crash-child.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const LogLine = z.looseObject({ level: z.number(), msg: z.string() });

const { db, url } = await createTestDatabase<IdempotencyTables & LabTables>(idempotencyMigrations);
await sql`CREATE TABLE crash_tally (message_id text PRIMARY KEY)`.execute(db);

function runChild(messageId: string): Promise<{
  code: number | null;
  signal: NodeJS.Signals | null;
  lines: z.infer<typeof LogLine>[];
}> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, url, messageId], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      const lines = output
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => LogLine.parse(JSON.parse(line)));
      resolve({ code, signal, lines });
    });
  });
}

describe('the crash fault', () => {
  it('kills the process with SIGKILL at the point, journaled, with the open transaction rolled back', async () => {
    // Given a message, when a child process crashes right after its business change
    const messageId = randomUUID();
    const { code, signal, lines } = await runChild(messageId);

    // Then it died by SIGKILL, not by an exit of its own
    expect(signal).toBe('SIGKILL');
    expect(code).toBeNull();
    const messages = lines.map((line) => line.msg);
    expect(messages).toContain('crash armed');
    expect(messages).not.toContain('still alive after the crash point');
    expect(lines.find((line) => line.level === 60)).toMatchObject({
      msg: 'lab fault: crashing this process with SIGKILL',
      point: 'after-business',
      messageId,
    });

    // And the journal says where it died
    const journaled = (await readJournal(db, { limit: 1000 })).filter(
      (entry) => entry.messageId === messageId,
    );
    expect(journaled.map((entry) => entry.kind)).toEqual([
      'claiming',
      'claimed',
      'business-done',
      'fault',
      'crash',
    ]);
    expect(journaled.at(-1)).toMatchObject({
      service: 'crash-test',
      consumer: 'crash-tally-v1',
      detail: { point: 'after-business' },
    });
    expect(journaled.at(-1)?.pid).not.toBe(process.pid);

    // And the transaction it left open was rolled back: no marker, no tally row
    expect(await findMarker(db, 'crash-tally-v1', messageId)).toBeUndefined();
    const { rows } = await sql`SELECT 1 FROM crash_tally WHERE message_id = ${messageId}`.execute(
      db,
    );
    expect(rows).toEqual([]);
  });
});
