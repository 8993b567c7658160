// The spool against the real file system: what was appended survives a
// reopen (the process's death), in order, and a torn last line is dropped.
import { appendFile, mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { IncomingEmail } from '../../domain/mailbox.js';
import { openMailSpool } from './mail-spool.js';

const email = (n: number): IncomingEmail => ({
  messageId: `<order-${String(n)}.order_confirmed@shop.test>`,
  from: 'shop@shop.test',
  to: ['customer@example.com'],
  subject: `Order ${String(n)} is confirmed`,
  text: 'Thank you.',
  orderId: String(n),
});

const spoolFile = async () =>
  path.join(await mkdtemp(path.join(os.tmpdir(), 'mail-spool-')), 'spool.jsonl');

describe('openMailSpool', () => {
  it('given no file yet, when opened, then it recovers nothing and creates the file on the first append', async () => {
    const file = await spoolFile();
    const { spool, recovered } = await openMailSpool(file, { capacity: 100 });
    expect(recovered).toEqual([]);
    await spool.append(email(1), new Date('2026-12-01T10:00:00.000Z'));
    await spool.close();
    expect(await readFile(file, 'utf8')).toContain('order-1.order_confirmed');
  });

  it('given appended emails, when the spool is opened again, then they come back in order with their time', async () => {
    const file = await spoolFile();
    const first = await openMailSpool(file, { capacity: 100 });
    await Promise.all(
      [1, 2, 3].map((n) => first.spool.append(email(n), new Date(Date.UTC(2026, 11, 1, 10, 0, n)))),
    );
    await first.spool.close();

    const second = await openMailSpool(file, { capacity: 100 });
    expect(second.recovered.map((entry) => entry.email.orderId)).toEqual(['1', '2', '3']);
    expect(second.recovered[2]?.receivedAt.toISOString()).toBe('2026-12-01T10:00:03.000Z');
    await second.spool.close();
  });

  it('given a torn last line, when opened, then it is dropped and later appends stay readable', async () => {
    const file = await spoolFile();
    const first = await openMailSpool(file, { capacity: 100 });
    await first.spool.append(email(1), new Date());
    await first.spool.close();
    await appendFile(file, '{"receivedAt":"2026-12-01T10:00:00.000Z","email":{"messageId"');

    const second = await openMailSpool(file, { capacity: 100 });
    expect(second.recovered).toHaveLength(1);
    await second.spool.append(email(2), new Date());
    await second.spool.close();
    const third = await openMailSpool(file, { capacity: 100 });
    expect(third.recovered.map((entry) => entry.email.orderId)).toEqual(['1', '2']);
    await third.spool.close();
  });

  it('given a line that is not a spooled email, when opened, then it refuses with the file and line', async () => {
    const file = await spoolFile();
    await appendFile(file, '{"receivedAt":"2026-12-01T10:00:00.000Z","email":{"messageId":1}}\n');
    await expect(openMailSpool(file, { capacity: 100 })).rejects.toThrow(
      /spool\.jsonl:1 is not a spooled email/,
    );
  });

  it('given more messages than the mailbox keeps, when opened, then only the last ones come back and the file shrinks to them', async () => {
    const file = await spoolFile();
    const first = await openMailSpool(file, { capacity: 100 });
    for (const n of [1, 2, 3, 4, 5]) await first.spool.append(email(n), new Date());
    await first.spool.close();

    const second = await openMailSpool(file, { capacity: 2 });
    expect(second.recovered.map((entry) => entry.email.orderId)).toEqual(['4', '5']);
    await second.spool.append(email(6), new Date());
    await second.spool.close();
    expect((await readFile(file, 'utf8')).trim().split('\n')).toHaveLength(3);
  });

  it('given a line that is not JSON in the middle, when opened, then it refuses with the file and line', async () => {
    const file = await spoolFile();
    await appendFile(file, 'not json\n{"receivedAt":"2026-12-01T10:00:00.000Z"}\n');
    await expect(openMailSpool(file, { capacity: 100 })).rejects.toThrow(
      /spool\.jsonl:1 is not JSON/,
    );
  });
});
