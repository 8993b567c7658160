// The sink as the stack runs it, an OS process with a spool file: an email it
// answered 250 to is still listed after a SIGKILL and a restart, because a
// mail server that said "250 OK" owns the message.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EmailList } from '@effectively-once/contracts';
import { findFreePort } from '@effectively-once/postgres';
import nodemailer from 'nodemailer';
import { afterEach, describe, expect, it } from 'vitest';

const SERVER = fileURLToPath(new URL('./server.ts', import.meta.url));
const running: ChildProcess[] = [];
const START_TIMEOUT_MS = 50_000;

afterEach(() => {
  for (const child of running.splice(0)) child.kill('SIGKILL');
});

async function startSink(env: Record<string, string>, httpPort: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: 'ignore',
  });
  running.push(child);
  // A cold `tsx` start on a loaded 2-core machine (the other test projects, or
  // the e2e stack beside them) has taken more than 20 s.
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const ready = await fetch(`http://127.0.0.1:${String(httpPort)}/ready`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return child;
    if (Date.now() > deadline)
      throw new Error(`The mail sink did not get ready in ${String(START_TIMEOUT_MS / 1000)} s.`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function emailsOf(httpPort: number, orderId: string) {
  const response = await fetch(`http://127.0.0.1:${String(httpPort)}/emails?orderId=${orderId}`);
  return EmailList.parse(await response.json()).emails;
}

describe('mail sink process with a spool file', () => {
  // Two starts of the sink, each allowed START_TIMEOUT_MS.
  it(
    'given an email answered 250, when the sink is SIGKILLed and started again, then the email is still listed, once',
    { timeout: 2 * START_TIMEOUT_MS + 20_000 },
    async () => {
      // Ports the sink binds later, and again after the kill: outside the ephemeral
      // range, so no other worker's outgoing connection can hold one meanwhile.
      const httpPort = await findFreePort();
      let smtpPort = await findFreePort();
      while (smtpPort === httpPort) smtpPort = await findFreePort();
      const spool = path.join(
        await mkdtemp(path.join(os.tmpdir(), 'mail-sink-crash-')),
        'spool.jsonl',
      );
      const env = {
        PORT: String(httpPort),
        SMTP_PORT: String(smtpPort),
        MAIL_SINK_SPOOL_FILE: spool,
      };
      const first = await startSink(env, httpPort);
      const orderId = randomUUID();
      const transport = nodemailer.createTransport({
        host: '127.0.0.1',
        port: smtpPort,
        secure: false,
        ignoreTLS: true,
      });
      const info = await transport.sendMail({
        from: 'orders@effectively-once.local',
        to: 'customer@example.com',
        subject: `Order ${orderId} is confirmed`,
        text: 'Thank you.',
        messageId: `<order-${orderId}.order_confirmed@effectively-once.local>`,
        headers: { 'X-Order-Id': orderId },
      });
      transport.close();
      expect(info.response).toMatch(/^250/);

      const exited = new Promise((resolve) => first.once('exit', resolve));
      first.kill('SIGKILL');
      await exited;
      await startSink(env, httpPort);

      const emails = await emailsOf(httpPort, orderId);
      expect(
        emails.map((email) => ({ messageId: email.messageId, duplicate: email.duplicate })),
      ).toEqual([
        {
          messageId: `<order-${orderId}.order_confirmed@effectively-once.local>`,
          duplicate: false,
        },
      ]);
    },
  );
});
