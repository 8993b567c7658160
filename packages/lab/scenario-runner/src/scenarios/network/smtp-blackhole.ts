// The mail server goes silent for longer than notification's SMTP timeout:
// the send times out and fails (retryable), and the retry after the link comes
// back sends the email. One copy in the sink: the timed-out exchange never
// reached the server, so nothing was sent twice.
import type { Scenario } from '../../scenario.js';
import {
  describeLink,
  expectOneEmailEach,
  links,
  placeBurst,
  waitForAll,
} from './network-support.js';

const LINK = 'smtp';
const BLACKHOLE_MS = 8_000;

export const smtpBlackhole: Scenario = {
  name: 'smtp-blackhole',
  title: 'The SMTP link goes silent past the send timeout: the email is retried and sent once',
  summary:
    'The fault proxy swallows everything between notification and the SMTP sink for eight seconds, longer than notification’s 5 s SMTP timeout. Two orders are confirmed meanwhile (the saga does not wait for email); their sends time out and are retried. Once the link is back the retries get through: each order has exactly one email in the sink, none while the link was silent.',
  async run(context) {
    const control = links(context);
    const sku = await context.freshSku(2);
    const applied = await control.applyFault(LINK, { kind: 'blackhole', durationMs: BLACKHOLE_MS });
    const until = Date.parse(
      applied.active.find((fault) => fault.kind === 'blackhole')?.until ?? '',
    );
    context.step(`blackhole on ${LINK} for ${String(BLACKHOLE_MS / 1000)} s`);
    const orderIds = await placeBurst(context, sku, 2);
    await waitForAll(context, orderIds, ['confirmed']);
    context.step('both orders confirmed: the saga does not wait for email');
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, until - Date.now() - 1_000)));
    const early = await Promise.all(orderIds.map((id) => context.api.emails(id)));
    context.expect(
      'no email reached the sink while the link was silent',
      early.every((emails) => emails.length === 0),
      early.map((emails) => String(emails.length)).join(', '),
    );
    await expectOneEmailEach(context, orderIds);
    context.step(describeLink(await control.link(LINK)));
  },
};
