import plugin from './index.js';
import { ruleTester } from './rule-tester.js';

const rule = plugin.rules['no-network-in-process-once-work'];
/** The runners of this repository, as eslint.config.js configures them. */
const repoOptions = [
  {
    runners: {
      processOnce: 'work',
      attemptOnce: 'work',
      processBatchOnce: 'work',
      processPaymentMessage: 2,
    },
  },
];

// Must pass: the payment consumer's shape. The provider is called between two
// transactions; the work only records the answer.
const paymentCallsOutBetweenTransactions = `
export async function handleOrderConfirmed(deps: PaymentHandlerDeps, recorded: RecordedEvent) {
  const attempt = await recordCaptureIntent(deps, recorded);
  await deps.provider.capture({ paymentAttemptId: attempt.id, authorizationId: attempt.authorizationId });
  return processPaymentMessage(deps, recorded, async (trx) => {
    await saveTransition(trx, { attempt, from: 'authorized', now: deps.now() });
    return 'captured';
  });
}`;
// Must pass: the notification consumer's shape, the send outside processOnce.
const notificationSendsOutside = `
async function handle(deps: NotificationEmailDeps, email: Email, recorded: RecordedEvent) {
  await deps.mailer.send(email);
  return processOnce({
    db: deps.db,
    consumer: notificationEmail,
    message: { id: recorded.id, type: recorded.type },
    work: async (trx) => {
      await insertNotification(trx, { email_message_id: email.messageId });
      return email.messageId;
    },
  });
}`;

// Must fail: the same two consumers with the call moved into the work.
const providerInsideWork = `
export async function handleOrderConfirmed(deps: PaymentHandlerDeps, recorded: RecordedEvent) {
  return processPaymentMessage(deps, recorded, async (trx) => {
    const attempt = await findAttemptByOrder(trx, { orderId, forUpdate: true });
    await deps.provider.capture({ paymentAttemptId: attempt.id, authorizationId: attempt.authorizationId });
    return 'captured';
  });
}`;
const mailerInsideWork = `
await processOnce({
  db,
  consumer,
  message,
  work: async (trx) => {
    await insertNotification(trx, row);
    await deps.mailer.send(email);
  },
});`;
const workDeclaredApart = `
import { request } from 'undici';
async function record(trx: Transaction) {
  await insertNotification(trx, row);
  await request('http://provider/authorize', { method: 'POST' });
}
await processOnce({ db, consumer, message, work: record });`;
const rawTransportAndFetch = `
await attemptOnce({
  db,
  consumer,
  message,
  work: async (trx) => {
    await transport.sendMail({ to, subject, text });
    await fetch('http://127.0.0.1:4100/authorizations', { method: 'POST' });
  },
});`;

ruleTester.run('no-network-in-process-once-work', rule, {
  valid: [
    {
      name: 'payment: the provider is called before the work',
      code: paymentCallsOutBetweenTransactions,
      options: repoOptions,
    },
    { name: 'notification: the email is sent before the work', code: notificationSendsOutside },
    {
      name: 'a local function named fetch is not the network',
      code: 'const fetch = (trx: Tx) => trx.selectFrom("t"); await processOnce({ db, consumer, message, work: (trx) => fetch(trx) });',
    },
  ],
  invalid: [
    {
      name: 'payment: the provider called inside the work',
      code: providerInsideWork,
      options: repoOptions,
      errors: [
        {
          messageId: 'networkInWork',
          data: { call: 'deps.provider.capture', runner: 'processPaymentMessage' },
        },
      ],
    },
    {
      name: 'notification: the mailer called inside the work',
      code: mailerInsideWork,
      errors: [
        { messageId: 'networkInWork', data: { call: 'deps.mailer.send', runner: 'processOnce' } },
      ],
    },
    {
      name: 'an undici call in a work function declared apart',
      code: workDeclaredApart,
      errors: [{ messageId: 'networkInWork', data: { call: 'request', runner: 'processOnce' } }],
    },
    {
      name: "nodemailer's sendMail and the global fetch",
      code: rawTransportAndFetch,
      errors: [
        { messageId: 'networkInWork', data: { call: 'transport.sendMail', runner: 'attemptOnce' } },
        { messageId: 'networkInWork', data: { call: 'fetch', runner: 'attemptOnce' } },
      ],
    },
  ],
});
