// Sends a composed email over SMTP with nodemailer, on a pool of open
// connections: a new connection (TCP, greeting, EHLO) costs more than the
// message itself. Every failure (refused connection, timeout, a rejected
// envelope) is thrown as a retryable ConsumerFailure: nothing is recorded as
// sent, and the event is redelivered later, up to the subscription's retry
// limit, then parked.
import { retryableFailure } from '@effectively-once/idempotency';
import nodemailer from 'nodemailer';
import type { Email } from '../../domain/notification.js';

export const SENDER_ADDRESS = 'orders@effectively-once.local';

export interface Mailer {
  /** Resolves once the SMTP server accepted the message; throws a retryable ConsumerFailure otherwise. */
  send(email: Email): Promise<void>;
  close(): void;
}

export interface SmtpMailerOptions {
  host: string;
  port: number;
  /**
   * Bounds connecting, the greeting and every later socket read. The send runs
   * outside any transaction, but a hung server still holds the delivery (and
   * the email's intent) for that long before it is retried.
   */
  timeoutMs?: number;
  /**
   * Connections kept open; 5 by default. A send beyond them waits in the
   * pool's queue, where no timeout runs: keep it at or above the consumer's
   * concurrency.
   */
  maxConnections?: number;
}

/**
 * A mailer for a local SMTP server: no TLS, no authentication (the mail sink).
 *
 * @example
 * const mailer = createSmtpMailer({ host: '127.0.0.1', port: 2525 });
 * await mailer.send(composeEmail(request));
 */
export function createSmtpMailer(options: SmtpMailerOptions): Mailer {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const transport = nodemailer.createTransport({
    pool: true,
    maxConnections: options.maxConnections ?? 5,
    // A connection that sat idle longer than socketTimeout is closed by the
    // pool, and the next send opens a new one. If the server drops a pooled
    // connection just as a message is handed to it, the pool sends it once
    // more on a new connection; past that the failure is the consumer's to
    // retry, with its backoff, rather than the pool's.
    maxRequeues: 1,
    host: options.host,
    port: options.port,
    secure: false,
    ignoreTLS: true,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    // The message carries no attachments; refuse to read files or URLs for it.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return {
    async send(email) {
      try {
        await transport.sendMail({
          from: SENDER_ADDRESS,
          to: email.to,
          subject: email.subject,
          text: email.text,
          messageId: email.messageId,
          headers: { 'X-Order-Id': email.orderId },
        });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw retryableFailure(`SMTP send of ${email.messageId} failed: ${reason}`, error);
      }
    },
    close() {
      transport.close();
    },
  };
}
