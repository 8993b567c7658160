// Sends a composed email over SMTP with nodemailer, on a pool of open
// connections: a new connection (TCP, greeting, EHLO) costs more than the
// message itself. A failure records nothing as sent: an outage (refused
// connection, timeout, a 4xx reply) is retried until the server takes the
// email, a permanent refusal (5xx) is parked with the reply, and anything
// else is retried as usual, then parked (sendFailure).
import {
  retryableFailure,
  retryUntilSuccessFailure,
  terminalFailure,
  type ConsumerFailure,
} from '@effectively-once/idempotency';
import { z } from 'zod';
import nodemailer from 'nodemailer';
import { inSmtpSendSpan } from '@effectively-once/service-kit/tracing';
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

const SmtpReply = z.object({ responseCode: z.number().int() });
/** nodemailer's codes for a server that cannot be reached or stopped answering. */
const SmtpUnreachable = z.object({
  code: z.enum(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'ECONNRESET', 'ECONNREFUSED', 'EDNS']),
});

/**
 * How a failed send is retried, as a mail queue would: a server that said no
 * for good (a 5xx reply: no such mailbox, message refused) will say it again,
 * so the message is parked with the reply for an operator; anything else (no
 * connection, a reset, a timeout, a 4xx "try later") is an outage, and the
 * email is retried until the server takes it, never parked for it: a
 * confirmed order's customer must hear of it, and a mail server down for a
 * minute or a day is not the message's fault (the soak showed emails parked
 * after the lab's five quick retries ran out during a one-minute outage).
 */
export function sendFailure(messageId: string, error: unknown): ConsumerFailure {
  const reason = `SMTP send of ${messageId} failed: ${error instanceof Error ? error.message : String(error)}`;
  const reply = SmtpReply.safeParse(error);
  if (reply.success && reply.data.responseCode >= 500 && reply.data.responseCode < 600) {
    return terminalFailure(reason, error);
  }
  if (reply.success && reply.data.responseCode >= 400)
    return retryUntilSuccessFailure(reason, error);
  if (SmtpUnreachable.safeParse(error).success) return retryUntilSuccessFailure(reason, error);
  // Anything else (a rejected envelope, a bug): retried as usual, and parked once the retries run out.
  return retryableFailure(reason, error);
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
        const { host, port } = options;
        await inSmtpSendSpan({ host, port, messageId: email.messageId }, (traceHeaders) =>
          transport.sendMail({
            from: SENDER_ADDRESS,
            to: email.to,
            subject: email.subject,
            text: email.text,
            messageId: email.messageId,
            headers: { 'X-Order-Id': email.orderId, ...traceHeaders },
          }),
        );
      } catch (error) {
        throw sendFailure(email.messageId, error);
      }
    },
    close() {
      transport.close();
    },
  };
}
