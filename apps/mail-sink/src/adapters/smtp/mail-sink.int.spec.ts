// The sink end to end in one process: nodemailer delivers over real SMTP on a
// loopback port the OS chose, and the HTTP API lists what arrived.
import { randomUUID } from 'node:crypto';
import { EmailList } from '@effectively-once/contracts';
import nodemailer from 'nodemailer';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { Mailbox } from '../../domain/mailbox.js';
import { startSmtpReceiver } from './smtp-receiver.js';

const mailbox = new Mailbox({ capacity: 100 });
const smtp = await startSmtpReceiver({
  host: '127.0.0.1',
  port: 0,
  onEmail: (email) => mailbox.receive(email, new Date()),
});
const app = buildApp({ mailbox, smtpListening: () => smtp.listening() });
const transport = nodemailer.createTransport({
  host: '127.0.0.1',
  port: smtp.port,
  secure: false,
  ignoreTLS: true,
});
afterAll(async () => {
  transport.close();
  await Promise.all([app.close(), smtp.close()]);
});

function sendConfirmation(input: { orderId: string; to: string; subject?: string }) {
  return transport.sendMail({
    from: 'orders@effectively-once.local',
    to: input.to,
    subject: input.subject ?? 'Your order is confirmed',
    text: `Order ${input.orderId} is confirmed.`,
    messageId: `<order-${input.orderId}.order_confirmed@effectively-once.local>`,
    headers: { 'X-Order-Id': input.orderId },
  });
}

async function listEmails(query: { to?: string; orderId?: string }) {
  const reply = await app.inject({ method: 'GET', url: '/emails', query });
  expect(reply.statusCode).toBe(200);
  return EmailList.parse(reply.json()).emails;
}

describe('mail sink', () => {
  it('keeps two deliveries of one Message-ID and flags the second as a duplicate', async () => {
    const orderId = randomUUID();
    const to = `${orderId}@example.com`;
    await sendConfirmation({ orderId, to });
    await sendConfirmation({ orderId, to, subject: 'Your order is confirmed (again)' });

    const emails = await listEmails({ orderId });

    expect(emails).toEqual([
      expect.objectContaining({
        messageId: `<order-${orderId}.order_confirmed@effectively-once.local>`,
        from: 'orders@effectively-once.local',
        to: [to],
        subject: 'Your order is confirmed',
        orderId,
        duplicate: false,
      }),
      expect.objectContaining({ subject: 'Your order is confirmed (again)', duplicate: true }),
    ]);
    expect(emails[0]?.text.trim()).toBe(`Order ${orderId} is confirmed.`);
  });

  it('filters by recipient and by order', async () => {
    const [first, second] = [randomUUID(), randomUUID()];
    const shared = `${randomUUID()}@example.com`;
    await sendConfirmation({ orderId: first, to: shared });
    await sendConfirmation({ orderId: second, to: shared });
    await sendConfirmation({ orderId: second, to: `${second}@example.com` });

    expect((await listEmails({ to: shared })).map((email) => email.orderId)).toEqual([
      first,
      second,
    ]);
    expect(
      (await listEmails({ to: shared.toUpperCase(), orderId: second })).map((email) => email.to),
    ).toEqual([[shared]]);
    expect(await listEmails({ orderId: randomUUID() })).toEqual([]);
  });

  it('lists a message without an X-Order-Id with orderId null', async () => {
    const to = `${randomUUID()}@example.com`;
    await transport.sendMail({
      from: 'someone@example.com',
      to,
      subject: 'Hello',
      text: 'No order here.',
    });

    expect(await listEmails({ to })).toEqual([
      expect.objectContaining({ orderId: null, duplicate: false }),
    ]);
  });

  it('is healthy and ready while SMTP listens', async () => {
    expect((await app.inject({ method: 'GET', url: '/health' })).json()).toEqual({ status: 'ok' });
    expect((await app.inject({ method: 'GET', url: '/ready' })).json()).toEqual({
      status: 'ready',
      checks: { smtp: 'ok' },
    });
  });

  it('rejects an over-long query with a 400 problem', async () => {
    const reply = await app.inject({
      method: 'GET',
      url: '/emails',
      query: { to: 'x'.repeat(300) },
    });

    expect(reply.statusCode).toBe(400);
    expect(reply.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(reply.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
