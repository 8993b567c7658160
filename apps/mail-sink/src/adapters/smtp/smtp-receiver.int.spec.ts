// The receiver's promise to its clients: 250 only once the message is kept.
// A message it could not keep (the spool's disk full, say) gets 451, "try
// again later", so the sender keeps it and sends it again.
import nodemailer from 'nodemailer';
import { describe, expect, it } from 'vitest';
import { startSmtpReceiver } from './smtp-receiver.js';

describe('startSmtpReceiver', () => {
  it('given a message it cannot keep, when delivered, then the client gets 451 and nothing is acknowledged', async () => {
    const smtp = await startSmtpReceiver({
      host: '127.0.0.1',
      port: 0,
      onEmail: () => Promise.reject(new Error('ENOSPC: no space left on device')),
    });
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: smtp.port,
      secure: false,
      ignoreTLS: true,
    });
    try {
      await expect(
        transport.sendMail({
          from: 'orders@effectively-once.local',
          to: 'customer@example.com',
          subject: 'Order 1 is confirmed',
          text: 'Thank you.',
        }),
      ).rejects.toMatchObject({ responseCode: 451 });
    } finally {
      transport.close();
      await smtp.close();
    }
  });
});
