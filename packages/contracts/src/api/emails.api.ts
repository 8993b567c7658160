import { z } from 'zod';

/** Mail the SMTP sink received. `duplicate`: a message with this Message-ID arrived before. */
export const ReceivedEmail = z.object({
  messageId: z.string(),
  from: z.string(),
  to: z.array(z.string()),
  subject: z.string(),
  text: z.string(),
  orderId: z.string().nullable(),
  receivedAt: z.iso.datetime({ offset: true }),
  duplicate: z.boolean(),
});
export type ReceivedEmail = z.infer<typeof ReceivedEmail>;

export const ListEmailsQuery = z.object({
  to: z.string().max(254).optional(),
  orderId: z.string().max(100).optional(),
});

export const EmailList = z.object({ emails: z.array(ReceivedEmail) }).meta({ id: 'EmailList' });
export type EmailList = z.infer<typeof EmailList>;
