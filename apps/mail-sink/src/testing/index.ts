// What another app's tests may use to run this fake SMTP server for real
// (see the app boundaries in eslint.config.js).
export { startSmtpReceiver } from '../adapters/smtp/smtp-receiver.js';
export { Mailbox } from '../domain/mailbox.js';
