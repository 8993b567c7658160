// A system the saga depends on is really down: the supervisor stops its
// process (the card processor, the SMTP sink) and starts it again after a
// while, as an outage of a minute would. The services keep running and keep
// retrying; an outage is waited out without counting toward parking (ADR
// 0021), and whatever was parked anyway (a crash meanwhile) is replayed by
// the operator once the system is back. Every order ends, and no card is
// charged and no email sent twice.
import { orderStream } from '@effectively-once/contracts';
import type { JournalEntry } from '@effectively-once/fault-injection';
import { ReplayedParked } from '@effectively-once/service-kit';
import { outagesClient } from '../../clients/outages-client.js';
import type { Scenario, ScenarioContext } from '../../scenario.js';
import type { LabStack } from '../../stack/lab-stack.js';
import { NOTIFICATION, PAYMENT } from '../support.js';
import { placeSteadyOrders, waitForLastEffects, waitForTerminal } from './order-load.js';
import { expectNoRestart, processStarts } from './process-starts.js';

export interface ProcessDownOptions {
  /** How long the process stays down; a minute for the named scenarios. */
  readonly downMs?: number;
}

interface Outage {
  readonly name: string;
  readonly title: string;
  /** The process the supervisor stops, and the saga service that needs it. */
  readonly process: 'payment-provider' | 'mail-sink';
  readonly service: 'payment' | 'notification';
  readonly consumer: string;
  readonly port: (stack: LabStack) => number;
  readonly summary: (downSeconds: number) => string;
}

const ORDERS = 4;
const ORDER_INTERVAL_MS = 500;

function failedWhileDown(consumer: string, orderIds: readonly string[]) {
  return (candidate: JournalEntry): boolean =>
    candidate.kind === 'handed-back' &&
    candidate.consumer === consumer &&
    candidate.orderId !== null &&
    orderIds.includes(candidate.orderId);
}

/** Waits until the supervisor runs the process again and it answers /ready. */
async function waitUntilBack(context: ScenarioContext, outage: Outage, timeoutMs: number) {
  const outages = outagesClient(context.stack);
  const gateway = new URL(context.stack.gatewayUrl);
  const ready = `${gateway.protocol}//${gateway.hostname}:${String(outage.port(context.stack))}/ready`;
  await context.waitUntil(
    `${outage.process} to run and answer /ready again`,
    async () => {
      const state = (await outages.processes()).find((p) => p.name === outage.process)?.state;
      if (state !== 'running') return undefined;
      return (await fetch(ready).then(
        (r) => r.ok,
        () => false,
      ))
        ? true
        : undefined;
    },
    timeoutMs,
  );
}

/**
 * Replays what the service parked for these orders while the system was
 * down, until nothing of theirs is parked and every order has ended.
 */
async function replayUntilSettled(
  context: ScenarioContext,
  outage: Outage,
  orderIds: readonly string[],
) {
  const streams = new Set(orderIds.map(orderStream));
  let replayed = 0;
  await context.waitUntil(
    'every order to end, replaying what was parked during the outage',
    async () => {
      const parked = (await context.api.parked(outage.service, outage.consumer)).parked;
      if (parked.some((row) => streams.has(row.streamName))) {
        const answer = await context.api.replayParkedAs(outage.service, outage.consumer);
        if (answer.status !== 200) {
          throw new Error(`The replay answered ${String(answer.status)}: ${answer.text}`);
        }
        replayed += ReplayedParked.parse(JSON.parse(answer.text)).replayed;
        return undefined;
      }
      const orders = await Promise.all(orderIds.map((id) => context.api.order(id)));
      return orders.every((order) => ['confirmed', 'cancelled'].includes(order.status))
        ? true
        : undefined;
    },
    120_000,
  );
  context.step(`replayed ${String(replayed)} message(s) parked while ${outage.process} was down`);
}

function processDown(outage: Outage, options: ProcessDownOptions): Scenario {
  const downMs = options.downMs ?? 60_000;
  return {
    name: outage.name,
    title: outage.title,
    summary: outage.summary(downMs / 1000),
    infrastructure: true,
    async run(context) {
      const outages = outagesClient(context.stack);
      const sku = await context.freshSku(ORDERS);
      const starts = await processStarts(context);
      const stopped = await outages.stopProcess(outage.process, downMs);
      context.step(`${outage.process} stopped for ${String(downMs)} ms (state ${stopped.state})`);
      const load = await placeSteadyOrders(context, {
        sku,
        count: ORDERS,
        intervalMs: ORDER_INTERVAL_MS,
      });
      const failed = await context.waitForJournal(
        `${outage.service} to fail a delivery against the stopped ${outage.process}`,
        failedWhileDown(outage.consumer, load.orderIds),
        downMs,
      );
      context.expect(
        `${outage.service} could not reach ${outage.process} and handed the delivery back`,
        true,
        failed.detail['reason'] ?? '',
      );
      await waitUntilBack(context, outage, downMs + 30_000);
      context.step(`${outage.process} is back`);
      await replayUntilSettled(context, outage, load.orderIds);
      await waitForTerminal(context, load.orderIds);
      const orders = await Promise.all(load.orderIds.map((id) => context.api.order(id)));
      const endings = orders.map((order) =>
        order.status === 'confirmed'
          ? 'confirmed'
          : `cancelled (${order.cancellationReason ?? '?'})`,
      );
      context.step(`the orders ended: ${endings.join(', ')}`);
      context.expect(
        outage.process === 'payment-provider'
          ? 'every order ended confirmed, or cancelled as payment_unavailable where its retries ran out during the outage'
          : 'every order ended confirmed: the saga does not wait for email',
        endings.every(
          (ending) =>
            ending === 'confirmed' ||
            (outage.process === 'payment-provider' && ending === 'cancelled (payment_unavailable)'),
        ),
        endings.join(', '),
      );
      await waitForLastEffects(context, load.orderIds);
      await expectNoRestart(context, starts);
    },
  };
}

/**
 * @example
 * const short = providerDown({ downMs: 5_000 }); // what the e2e run uses
 */
export function providerDown(options: ProcessDownOptions = {}): Scenario {
  return processDown(
    {
      name: 'provider-down',
      title: 'The card processor is down: payments wait for it, nothing is charged twice',
      process: 'payment-provider',
      service: 'payment',
      consumer: PAYMENT,
      port: (stack) => stack.ports.paymentProvider,
      summary: (seconds) =>
        `The supervisor stops the card processor for ${String(seconds)} s while orders are placed. Payment cannot reach it and hands each request back for a later attempt, waiting the outage out. Every order ends confirmed, each authorized and captured once; with the lab’s short retry budget (5), an order whose last-chance close of its key reaches the processor first finds nothing authorized and ends cancelled as payment_unavailable instead, holding nothing. Anything parked is replayed once the processor is back.`,
    },
    options,
  );
}

/**
 * @example
 * const short = smtpDown({ downMs: 5_000 }); // what the e2e run uses
 */
export function smtpDown(options: ProcessDownOptions = {}): Scenario {
  return processDown(
    {
      name: 'smtp-down',
      title: 'The SMTP server is down: emails wait for it, none is sent twice',
      process: 'mail-sink',
      service: 'notification',
      consumer: NOTIFICATION,
      port: (stack) => stack.ports.mailSink,
      summary: (seconds) =>
        `The supervisor stops the SMTP sink for ${String(seconds)} s while orders are placed. The orders are confirmed meanwhile; notification cannot connect and hands each email back for a later attempt, waiting the outage out rather than parking it. Every order gets its confirmation email once, after the sink is back.`,
    },
    options,
  );
}
