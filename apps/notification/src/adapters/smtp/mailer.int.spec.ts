// The SMTP adapter against real servers: what the email carries, that a
// pooled connection the server dropped is replaced, and that a server that
// does not answer in time is a retryable failure, not a hang.
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

  it('a server that accepts the connection but never greets is a retryable failure after the timeout', async () => {
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
        reason: expect.stringContaining(`SMTP send of ${email.messageId} failed`) as unknown,
      });
      expect(sockets.size).toBe(1);
    } finally {
      mailer.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
