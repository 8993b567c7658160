// A parsed SMTP message as the mailbox keeps it.
import { randomUUID } from 'node:crypto';
import type { ParsedMail } from 'mailparser';
import type { SMTPServerEnvelope } from 'smtp-server';
import type { IncomingEmail } from '../../domain/mailbox.js';

export const ORDER_ID_HEADER = 'x-order-id';

/**
 * Addresses come from the SMTP envelope: who the message was delivered to,
 * Bcc included, whatever the headers say. A message without a Message-ID gets
 * a fresh one, so it is never mistaken for a duplicate.
 */
export function toIncomingEmail(parsed: ParsedMail, envelope: SMTPServerEnvelope): IncomingEmail {
  const orderId = parsed.headers.get(ORDER_ID_HEADER);
  return {
    messageId: parsed.messageId ?? `<${randomUUID()}@mail-sink.invalid>`,
    from: envelope.mailFrom === false ? '' : envelope.mailFrom.address,
    to: envelope.rcptTo.map((recipient) => recipient.address),
    subject: parsed.subject ?? '',
    text: parsed.text ?? '',
    orderId: typeof orderId === 'string' && orderId.trim() !== '' ? orderId.trim() : null,
  };
}
