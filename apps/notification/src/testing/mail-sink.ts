// The integration tests deliver to the real mail sink (apps/mail-sink), the
// SMTP server the services use in development, on a loopback port: what it
// flags as a `duplicate` (a Message-ID seen before) is exactly what a
// customer's mail client would see twice. Apps never import each other; tests
// may run a fake external system through its ./testing export.
import { createServer } from 'node:net';
import type { ReceivedEmail } from '@effectively-once/contracts';
import { Mailbox, startSmtpReceiver } from '@effectively-once/mail-sink/testing';

export interface MailSink {
  readonly host: string;
  readonly port: number;
  /**
   * Mail carrying this X-Order-Id, oldest first. A send resolves only after the
   * sink replied 250, and it records the message before replying: no waiting needed.
   */
  receivedFor(orderId: string): ReceivedEmail[];
  close(): Promise<void>;
}

const HOST = '127.0.0.1';

/** Starts the sink's SMTP side on `port`, or on a free one when omitted. */
export async function startMailSink(port = 0): Promise<MailSink> {
  const mailbox = new Mailbox({ capacity: 1_000 });
  const smtp = await startSmtpReceiver({
    host: HOST,
    port,
    onEmail: (email) => mailbox.receive(email, new Date()),
  });
  return {
    host: HOST,
    port: smtp.port,
    receivedFor: (orderId) => mailbox.list({ orderId }),
    close: () => smtp.close(),
  };
}

/** A loopback port that accepts nothing (bound, then released): an SMTP server that is down. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
