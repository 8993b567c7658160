// The campaign, decided before anything runs: which orders arrive when, with
// which token, which of them a customer POSTs twice or cancels, and when each
// fault strikes. Pure and seeded, so a failing seed replays the same campaign
// and the plan is unit-tested without a stack.
import { between, pick, seededRandom, shuffled, type Random } from './seeded-random.js';

/** A fault the stack under test can take, and how long it lasts when it lasts. */
export interface FaultKindSpec {
  readonly kind: string;
  /** 0 for an instant fault (a SIGKILL); otherwise how long the outage lasts. */
  readonly durationMs: number;
}

export interface SoakPlanInput {
  readonly seed: number;
  /** Distinguishes runs with the same seed in the Idempotency-Keys (a key is forever). */
  readonly runId: string;
  readonly orders: number;
  readonly ratePerSecond: number;
  readonly faultKinds: readonly FaultKindSpec[];
  /** How often a fault strikes on average; every kind strikes at least once whatever this says. */
  readonly faultEveryMs: number;
  /** SKUs stocked far beyond what the campaign orders. */
  readonly plentifulSkus: readonly string[];
  /** A SKU stocked for about half of its orders: the rest end `out_of_stock`. */
  readonly scarceSku: string;
}

export interface PlannedOrder {
  readonly index: number;
  /** When the first POST is sent, from the start of the load. */
  readonly atMs: number;
  readonly idempotencyKey: string;
  readonly sku: string;
  readonly quantity: number;
  readonly paymentToken: string;
  /** Each is one more POST with the same key and body, this long after the first (0: at once, racing it). */
  readonly duplicateAfterMs: readonly number[];
  /** The customer cancels this long after the first POST, or never. */
  readonly cancelAfterMs: number | null;
}

export interface PlannedFault {
  readonly index: number;
  readonly atMs: number;
  readonly kind: string;
  readonly durationMs: number;
}

export interface SoakPlan {
  readonly seed: number;
  /** How long the orders take to arrive at the planned rate. */
  readonly loadMs: number;
  readonly orders: readonly PlannedOrder[];
  readonly faults: readonly PlannedFault[];
}

/**
 * The token mix: mostly cards that pay; some declined, some the processor
 * does not know (declined as `unknown_token`), some that fail transiently
 * every time (the request closes its key and the order ends
 * `payment_unavailable`). `tok_timeout` is left out: each holds the payment
 * consumer for the processor's whole timeout, and the provider-timeout
 * scenario already shows it.
 */
export const TOKEN_MIX: readonly { token: string; share: number }[] = [
  { token: 'tok_approve', share: 0.8 },
  { token: 'tok_decline', share: 0.08 },
  { token: 'tok_soak_unknown_card', share: 0.07 },
  { token: 'tok_error', share: 0.05 },
];

export const DUPLICATE_SHARE = 0.12;
export const CANCEL_SHARE = 0.1;
export const SCARCE_SHARE = 0.15;

function token(random: Random): string {
  let draw = random();
  for (const { token: candidate, share } of TOKEN_MIX) {
    if (draw < share) return candidate;
    draw -= share;
  }
  return 'tok_approve';
}

function planOrder(random: Random, input: SoakPlanInput, index: number): PlannedOrder {
  const duplicates = random() < DUPLICATE_SHARE ? between(random, 1, 2) : 0;
  return {
    index,
    atMs: Math.round((index * 1000) / input.ratePerSecond),
    idempotencyKey: `soak-${String(input.seed)}-${input.runId}-${String(index)}`,
    sku: random() < SCARCE_SHARE ? input.scarceSku : pick(random, input.plentifulSkus),
    quantity: between(random, 1, 3),
    paymentToken: token(random),
    duplicateAfterMs: Array.from({ length: duplicates }, () =>
      // A third race the first POST; the rest come back later, as a client retrying.
      random() < 0.33 ? 0 : between(random, 50, 1_500),
    ),
    cancelAfterMs: random() < CANCEL_SHARE ? between(random, 0, 4_000) : null,
  };
}

/**
 * Faults go in the middle of the load (from 10% to 85% of it), in slots of
 * even width with a seeded jitter, cycling through the kinds in a seeded
 * order so that every kind strikes at least once and none twice before all
 * have struck once.
 */
function planFaults(random: Random, input: SoakPlanInput, loadMs: number): PlannedFault[] {
  if (input.faultKinds.length === 0) return [];
  const from = loadMs * 0.1;
  const span = loadMs * 0.75;
  const count = Math.max(input.faultKinds.length, Math.round(span / input.faultEveryMs));
  const kinds: FaultKindSpec[] = [];
  while (kinds.length < count) kinds.push(...shuffled(random, input.faultKinds));
  const slot = span / count;
  return kinds.slice(0, count).map((spec, index) => ({
    index,
    atMs: Math.round(from + slot * index + slot * 0.5 + (random() - 0.5) * slot * 0.6),
    kind: spec.kind,
    durationMs: spec.durationMs,
  }));
}

/**
 * @example
 * const plan = planSoak({ seed: 7, runId: 'a1b2', orders: 150, ratePerSecond: 5, faultKinds: [{ kind: 'sigkill:payment', durationMs: 0 }], faultEveryMs: 3_000, plentifulSkus: ['SOAK-A'], scarceSku: 'SOAK-Z' });
 */
export function planSoak(input: SoakPlanInput): SoakPlan {
  if (!Number.isInteger(input.orders) || input.orders < 1) {
    throw new RangeError(`A soak places at least one order (got ${String(input.orders)}).`);
  }
  if (!(input.ratePerSecond > 0)) {
    throw new RangeError(`The rate must be above 0 orders/s (got ${String(input.ratePerSecond)}).`);
  }
  if (input.plentifulSkus.length === 0) throw new RangeError('The soak needs at least one SKU.');
  // Orders and faults draw from their own streams: adding a fault kind does not reshuffle the orders.
  const orderRandom = seededRandom(input.seed);
  const faultRandom = seededRandom(input.seed ^ 0x5eed_fa17);
  const orders = Array.from({ length: input.orders }, (_, index) =>
    planOrder(orderRandom, input, index),
  );
  const loadMs = Math.round((input.orders * 1000) / input.ratePerSecond);
  return { seed: input.seed, loadMs, orders, faults: planFaults(faultRandom, input, loadMs) };
}
