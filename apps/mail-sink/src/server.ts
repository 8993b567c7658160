// Composition root of the mail sink: `tsx apps/mail-sink/src/server.ts`.
// Not runService: a stand-in for an outside mail server, with no database or
// event store, and an SMTP listener the declaration has no field for (ADR 0038).
import { onShutdownSignal } from '@effectively-once/service-kit';
import { startSmtpReceiver, type SmtpReceiver } from './adapters/smtp/smtp-receiver.js';
import { buildApp } from './app.js';
import { loadMailSinkConfig } from './config.js';
import { Mailbox } from './domain/mailbox.js';
import { openMailSpool } from './adapters/spool/mail-spool.js';

const config = loadMailSinkConfig();
const mailbox = new Mailbox({ capacity: config.capacity });
// What an earlier run accepted is still the customer's: back in the mailbox before SMTP opens.
const spooled =
  config.spoolFile === undefined
    ? undefined
    : await openMailSpool(config.spoolFile, { capacity: config.capacity });
for (const { email, receivedAt } of spooled?.recovered ?? []) mailbox.receive(email, receivedAt);
// Not ready until SMTP listens; the HTTP side needs the mailbox first.
let smtp: SmtpReceiver | undefined = undefined;
const app = buildApp({
  mailbox,
  smtpListening: () => smtp?.listening() ?? false,
  logLevel: config.logLevel,
});

smtp = await startSmtpReceiver({
  host: config.host,
  port: config.smtpPort,
  onEmail: async (incoming) => {
    const receivedAt = new Date();
    await spooled?.spool.append(incoming, receivedAt);
    const email = mailbox.receive(incoming, receivedAt);
    app.log.info(
      { messageId: email.messageId, orderId: email.orderId, duplicate: email.duplicate },
      'mail received',
    );
  },
});
const smtpUrl = `smtp://${config.host}:${String(smtp.port)}`;
const url = await app.listen({ host: config.host, port: config.port });
app.log.info(
  { url, smtpUrl, spoolFile: config.spoolFile, recovered: spooled?.recovered.length ?? 0 },
  `mail sink listening on ${url} (HTTP) and ${smtpUrl} (SMTP)`,
);

// The default 15 s bounds the close: the SMTP server drops its clients after
// its own 5 s closeTimeout, and an HTTP request here answers from memory.
onShutdownSignal({
  log: app.log,
  close: async () => {
    await Promise.all([app.close(), smtp.close()]);
    await spooled?.spool.close();
  },
});
