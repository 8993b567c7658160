// The SMTP adapter against real servers: what the email carries, that a
// pooled connection the server dropped is replaced, that a server that does
// not answer in time is retried until it does (not a hang, never parked), and
// that a server refusing for good is a terminal failure.
import { randomUUID } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { composeEmail } from '../../domain/email.compose.js';
import { startMailSink } from '../../testing/mail-sink.js';
import { createSmtpMailer, SENDER_ADDRESS } from './mailer.js';

const smtp = await startMailSink();
afterAll(() => smtp.close());

describe('createSmtpMailer', () => {
  it('sends From the shop, To the customer, with the given Message-ID and an X-Order-Id header', async () => {
    const orderId = randomUUID();
    const email = composeEmail({ kind: 'order_confirmed', orderId, recipient: 'ada@example.com' });
    const mailer = createSmtpMailer({ host: smtp.host, port: smtp.port });

    await mailer.send(email);
    mailer.close();

    expect(smtp.receivedFor(orderId)).toEqual([
      {
        messageId: email.messageId,
        from: SENDER_ADDRESS,
        to: ['ada@example.com'],
        subject: email.subject,
        text: email.text,
        orderId,
        receivedAt: expect.any(String) as unknown,
        duplicate: false,
      },
    ]);
  });

  it('replaces a pooled connection the server dropped: after the server restarts, the next send goes through', async () => {
    // Given a mailer whose pool holds a connection to a server that then restarts
    const first = await startMailSink();
    const mailer = createSmtpMailer({ host: first.host, port: first.port });
    const email = (orderId: string) =>
      composeEmail({ kind: 'order_confirmed', orderId, recipient: 'ada@example.com' });
    await mailer.send(email(randomUUID()));
    await first.close();
    const restarted = await startMailSink(first.port);
    try {
      // When the next email is sent
      const orderId = randomUUID();
      await mailer.send(email(orderId));

      // Then the restarted server received it once
      expect(restarted.receivedFor(orderId)).toMatchObject([{ duplicate: false }]);
    } finally {
      mailer.close();
      await restarted.close();
    }
  });

  it('a server that accepts the connection but never greets is retried until it does, after the timeout', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    const mailer = createSmtpMailer({ host: '127.0.0.1', port: address.port, timeoutMs: 200 });
    const email = composeEmail({
      kind: 'order_cancelled',
      orderId: randomUUID(),
      recipient: 'ada@example.com',
      reason: 'customer_request',
      released: null,
    });

    try {
      await expect(mailer.send(email)).rejects.toMatchObject({
        name: 'ConsumerFailure',
        kind: 'retryable',
        untilSuccess: true,
        reason: expect.stringContaining(`SMTP send of ${email.messageId} failed`) as unknown,
      });
      expect(sockets.size).toBe(1);
    } finally {
      mailer.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('a server that refuses for good (a 5xx reply) is a terminal failure with the reply, parked for an operator', async () => {
    // Just enough SMTP to refuse the sender with 550.
    const refusing = createServer((socket) => {
      socket.write('220 refusing.test ESMTP\r\n');
      socket.on('data', (chunk) => {
        for (const line of chunk.toString('utf8').split('\r\n').filter(Boolean)) {
          const verb = line.slice(0, 4).toUpperCase();
          if (verb === 'EHLO' || verb === 'HELO') socket.write('250 refusing.test\r\n');
          else if (verb === 'MAIL') socket.write('550 5.7.1 sender refused for good\r\n');
          else if (verb === 'QUIT') socket.end('221 bye\r\n');
          else socket.write('250 ok\r\n');
        }
      });
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const address = refusing.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    const mailer = createSmtpMailer({ host: '127.0.0.1', port: address.port, timeoutMs: 2_000 });
    const email = composeEmail({
      kind: 'order_confirmed',
      orderId: randomUUID(),
      recipient: 'ada@example.com',
    });

    try {
      await expect(mailer.send(email)).rejects.toMatchObject({
        name: 'ConsumerFailure',
        kind: 'terminal',
        reason: expect.stringContaining('sender refused for good') as unknown,
      });
    } finally {
      mailer.close();
      await new Promise<void>((resolve) => refusing.close(() => resolve()));
    }
  });
});
