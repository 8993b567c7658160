// One soak, start to finish: a lab stack of its own, the planned orders at a
// steady rate while the fault schedule runs beside them, then the drain, the
// audits and the result. The CLI (main.ts) and the short version in the e2e
// tests both call this.
import { randomBytes } from 'node:crypto';
import { auditInvariants, auditTargetOf, type AuditTarget } from '@effectively-once/invariants';
import { STREAM_PREFIX, StuckOrderList } from '@effectively-once/contracts';
import { auditAcknowledgements } from './audit/lost-acknowledgements.js';
import { drainOrders } from './audit/order-ends.js';
import { replaySupersededParked } from './audit/superseded-parked.js';
import type { FaultInjector, FaultRecord } from './faults/fault.js';
import {
  cancelOrder,
  cancelWasAnswered,
  postOrder,
  restock,
  type PostResult,
} from './load/customer.js';
import { planSoak, type PlannedOrder } from './plan/soak-plan.js';
import { startSoakStack, type SoakStack } from './stack/soak-stack.js';
import { summarizeLatency, type SoakResult } from './report/soak-result.js';

export interface SoakOptions {
  readonly seed: number;
  readonly orders: number;
  readonly ratePerSecond: number;
  readonly faultEveryMs: number;
  /** `long` for `pnpm soak`; `short` uses each outage's short duration. */
  readonly profile: 'long' | 'short';
  readonly injectors: readonly FaultInjector[];
  /** How long the drain may take after the last order was placed. */
  readonly drainTimeoutMs: number;
  readonly repoRoot: string;
  readonly env: NodeJS.ProcessEnv;
  readonly log: (line: string) => void;
}

const PLENTIFUL_STOCK = 1_000_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves at `startedAt + atMs` (at once when that is past). */
const at = (startedAt: number, atMs: number) => pause(Math.max(0, startedAt + atMs - Date.now()));

interface OrderRun {
  readonly order: PlannedOrder;
  readonly sentAt: number;
  readonly first: PostResult;
  readonly duplicates: readonly PostResult[];
  readonly cancel: { answered: boolean; detail: string } | null;
}

async function runOrder(gatewayUrl: string, order: PlannedOrder): Promise<OrderRun> {
  const sentAt = Date.now();
  const duplicates = order.duplicateAfterMs.map(async (afterMs) => {
    await pause(afterMs);
    return postOrder(gatewayUrl, order);
  });
  const first = await postOrder(gatewayUrl, order);
  let cancel: OrderRun['cancel'] = null;
  if (order.cancelAfterMs !== null && first.orderId !== undefined) {
    await at(sentAt, order.cancelAfterMs);
    const outcome = await cancelOrder(gatewayUrl, first.orderId);
    cancel = {
      answered: cancelWasAnswered(outcome),
      detail: JSON.stringify(outcome).slice(0, 300),
    };
  }
  return { order, sentAt, first, duplicates: await Promise.all(duplicates), cancel };
}

async function runFault(
  stack: SoakStack,
  injector: FaultInjector,
  fault: Parameters<FaultInjector['inject']>[1],
  seed: number,
  log: (line: string) => void,
  loadStartedAt: number,
): Promise<FaultRecord> {
  const startedAtMs = Date.now() - loadStartedAt;
  log(`fault ${String(fault.index)} ${fault.kind} at +${String(startedAtMs)} ms`);
  try {
    const detail = await injector.inject({ stack, seed, log }, fault);
    log(`fault ${String(fault.index)} ${fault.kind}: ${detail}`);
    return { fault, startedAtMs, outcome: { kind: 'done', detail } };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log(`fault ${String(fault.index)} ${fault.kind} FAILED: ${message}`);
    return { fault, startedAtMs, outcome: { kind: 'failed', error: message } };
  }
}

async function stuckOrders(stack: SoakStack, orderIds: ReadonlySet<string>) {
  const response = await fetch(`${stack.target.gatewayUrl}/api/admin/stuck`, {
    headers: { authorization: `Bearer ${stack.target.adminToken ?? ''}` },
  });
  if (!response.ok) {
    throw new Error(
      `GET /api/admin/stuck answered ${String(response.status)}: ${await response.text()}`,
    );
  }
  const list = StuckOrderList.parse(await response.json());
  return list.orders.filter((order) => orderIds.has(order.orderId));
}

/**
 * A delivery still retrying lists its order as stuck, and one may be for a
 * while after the orders ended: a notification whose send attempt died (its
 * process killed, or its database session cut before it let go of the intent)
 * leaves the email's intent held, and the redelivery waits out the one-minute
 * send lease before it records the email (docs/services/notification.md).
 * Asks until nothing is stuck, or returns what still is at the deadline.
 */
async function stuckWhenSettled(
  stack: SoakStack,
  orderIds: ReadonlySet<string>,
  timeoutMs = 2 * 60_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const stuck = await stuckOrders(stack, orderIds);
    if (stuck.length === 0 || Date.now() > deadline) return stuck;
    await pause(1_000);
  }
}

/**
 * The last emails and captures may still be on their way when the last order
 * ends: an SMTP outage of a minute leaves a backlog that the one-at-a-time
 * lab consumer sends afterwards. An effect counts as on its way (pending, not
 * broken) for the whole wait, which is longer than any outage the soak
 * injects; audits until no check is pending, or returns the last report at
 * the deadline (its pending checks then fail the soak).
 */
async function auditWhenSettled(
  target: AuditTarget,
  orderIds: readonly string[],
  timeoutMs = 5 * 60_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const report = await auditInvariants(target, { scope: { orderIds }, settleMs: timeoutMs });
    if (report.checks.every((check) => check.status !== 'pending') || Date.now() > deadline) {
      return report;
    }
    await pause(1_000);
  }
}

/**
 * @example
 * const result = await runSoak({ seed: 1, orders: 150, ratePerSecond: 5, faultEveryMs: 2_000, profile: 'short', injectors, drainTimeoutMs: 300_000, repoRoot, env: process.env, log: console.log });
 */
export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const { log } = options;
  const started = Date.now();
  const stack = await startSoakStack({ repoRoot: options.repoRoot, env: options.env });
  log(`stack ready in ${String(Date.now() - started)} ms (log: ${stack.logFile})`);
  try {
    const reasons = await Promise.all(
      options.injectors.map(async (injector) => injector.unavailableBecause(stack)),
    );
    const runnable = options.injectors.filter((_, index) => reasons[index] === undefined);
    const unavailable = options.injectors.flatMap((injector, index) => {
      const reason = reasons[index];
      return reason === undefined ? [] : [{ kind: injector.kind, reason }];
    });
    const runId = randomBytes(3).toString('hex').toUpperCase();
    const skus = {
      plentiful: [`SOAK-${runId}-A`, `SOAK-${runId}-B`, `SOAK-${runId}-C`],
      scarce: `SOAK-${runId}-Z`,
    };
    const plan = planSoak({
      seed: options.seed,
      runId,
      orders: options.orders,
      ratePerSecond: options.ratePerSecond,
      faultKinds: runnable.map((injector) => ({
        kind: injector.kind,
        durationMs: injector.durationMs[options.profile],
      })),
      faultEveryMs: options.faultEveryMs,
      plentifulSkus: skus.plentiful,
      scarceSku: skus.scarce,
    });
    // About half of the scarce SKU's orders find stock.
    const scarceUnits = plan.orders
      .filter((order) => order.sku === skus.scarce)
      .reduce((units, order) => units + order.quantity, 0);
    for (const sku of skus.plentiful)
      await restock(stack.target.gatewayUrl, sku, PLENTIFUL_STOCK, `soak-${runId}-${sku}`);
    await restock(
      stack.target.gatewayUrl,
      skus.scarce,
      Math.max(1, Math.floor(scarceUnits / 2)),
      `soak-${runId}-${skus.scarce}`,
    );

    log(
      `seed ${String(options.seed)}: ${String(plan.orders.length)} orders over ${String(plan.loadMs)} ms, ${String(plan.faults.length)} faults of ${String(runnable.length)} kinds`,
    );
    const loadStartedAt = Date.now();
    const injectorOf = new Map(runnable.map((injector) => [injector.kind, injector]));
    const faultRuns = plan.faults.map(async (fault) => {
      await at(loadStartedAt, fault.atMs);
      const injector = injectorOf.get(fault.kind);
      if (injector === undefined) throw new Error(`No injector for ${fault.kind}.`);
      return runFault(stack, injector, fault, options.seed, log, loadStartedAt);
    });
    let placedSoFar = 0;
    const orderRuns = plan.orders.map(async (order) => {
      await at(loadStartedAt, order.atMs);
      const run = await runOrder(stack.target.gatewayUrl, order);
      placedSoFar += 1;
      if (placedSoFar % 100 === 0) log(`${String(placedSoFar)} orders answered`);
      return run;
    });
    const runs = await Promise.all(orderRuns);
    const faults = await Promise.all(faultRuns);
    const loadEndedAt = Date.now();

    const orderIds = [
      ...new Set(
        runs.flatMap((run) => (run.first.orderId === undefined ? [] : [run.first.orderId])),
      ),
    ];
    log(
      `load done in ${String(loadEndedAt - loadStartedAt)} ms; draining ${String(orderIds.length)} orders`,
    );
    const drain = await drainOrders({
      eventStoreUrl: stack.target.databases.eventStore,
      orderIds,
      timeoutMs: options.drainTimeoutMs,
      onProgress: (ended, total) => log(`drain: ${String(ended)} of ${String(total)} ended`),
    });
    log(`drain ${drain.drained ? 'complete' : 'INCOMPLETE'} after ${String(drain.drainMs)} ms`);
    const streams = new Set(
      orderIds.flatMap((orderId) =>
        Object.values(STREAM_PREFIX).map((prefix) => `${prefix}${orderId}`),
      ),
    );
    const replayed = await replaySupersededParked(stack.target, streams).catch((error: unknown) => {
      log(
        `replaying superseded parked messages failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      return [];
    });
    if (replayed.length > 0) log(`replayed ${String(replayed.length)} superseded parked messages`);
    const audit = await auditWhenSettled(auditTargetOf(stack.target), orderIds);
    const acknowledgements = await auditAcknowledgements(stack.target, orderIds);
    const stuck = await stuckWhenSettled(stack, new Set(orderIds));

    const latencies = runs.flatMap((run) => {
      const id = run.first.orderId;
      const end = id === undefined ? undefined : drain.ends.get(id);
      return end === undefined ? [] : [end.endedAt.getTime() - run.sentAt];
    });
    const cancelledBy: Record<string, number> = {};
    for (const end of drain.ends.values()) {
      if (end.status === 'cancelled') {
        const reason = end.reason ?? 'unknown';
        cancelledBy[reason] = (cancelledBy[reason] ?? 0) + 1;
      }
    }
    const duplicatePosts = runs.flatMap((run) =>
      run.duplicates.map((duplicate) => ({ run, duplicate })),
    );
    return {
      seed: options.seed,
      profile: options.profile,
      startedAt: new Date(started).toISOString(),
      plannedOrders: plan.orders.length,
      ratePerSecond: options.ratePerSecond,
      loadMs: loadEndedAt - loadStartedAt,
      posts: {
        placed: orderIds.length,
        unanswered: runs
          .filter((run) => run.first.outcome.kind === 'unanswered')
          .map((run) => run.order.idempotencyKey),
        refused: runs
          .filter((run) => run.first.outcome.kind === 'answered' && run.first.orderId === undefined)
          .map(
            (run) =>
              `${run.order.idempotencyKey}: ${JSON.stringify(run.first.outcome).slice(0, 300)}`,
          ),
        retries: runs.reduce((sum, run) => sum + run.first.outcome.tries - 1, 0),
        duplicates: duplicatePosts.length,
        duplicateMismatches: duplicatePosts
          .filter(({ run, duplicate }) => duplicate.orderId !== run.first.orderId)
          .map(
            ({ run, duplicate }) =>
              `${run.order.idempotencyKey}: first ${String(run.first.orderId)}, duplicate ${String(duplicate.orderId)}`,
          ),
      },
      cancels: {
        sent: runs.filter((run) => run.cancel !== null).length,
        unanswered: runs
          .filter((run) => run.cancel !== null && !run.cancel.answered)
          .map((run) => run.cancel?.detail ?? ''),
      },
      ends: {
        confirmed: [...drain.ends.values()].filter((end) => end.status === 'confirmed').length,
        cancelledBy,
        notEnded: orderIds.filter((id) => !drain.ends.has(id)),
      },
      drained: drain.drained,
      drainMs: drain.drainMs,
      latency: summarizeLatency(latencies),
      faults,
      unavailableFaults: unavailable,
      invariants: audit.checks.map((check) => ({
        name: check.name,
        status: check.status,
        summary: check.summary,
        violations: check.violations
          .slice(0, 5)
          .map((violation) => `${violation.subject}: ${violation.detail}`),
      })),
      acknowledgements: {
        acknowledged: acknowledgements.acknowledged,
        byBusinessKey: acknowledgements.byBusinessKey,
        lost: acknowledgements.lost.map(
          (lost) => `${lost.group} ${lost.eventType} ${lost.eventId} (${lost.streamName})`,
        ),
        uncheckedGroups: acknowledgements.uncheckedGroups,
      },
      replayedSuperseded: replayed.map(
        (message) =>
          `${message.consumer} ${message.type} of ${message.streamName} (parked: ${message.reason ?? 'no reason'}; superseded by ${message.supersededBy})`,
      ),
      stuck: stuck.map(
        (order) =>
          `${order.orderId} ${String(order.status)}: ${order.reasons.map((reason) => reason.kind).join(', ')}`,
      ),
      restarts: stack.processEvents.filter((event) => event.type === 'exited').length,
      stackLog: stack.logFile,
    };
  } finally {
    await stack.stop();
  }
}
