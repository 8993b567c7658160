// The customer's money: the card processor's ledger and the payment service's
// attempts must tell the same story. One authorization per idempotency key and
// per order (a second one is a double charge), each authorized attempt backed
// by exactly one authorization, each void done at the provider too, and no
// authorization the shop has no record of once the answer had time to land.
import type { InvariantCheck, Violation } from '../audit.types.js';
import type { PaymentAttemptFact, ProviderAuthorization } from '../facts/facts.types.js';
import { ageOf, count, finishCheck, isSettling, type CheckContext } from './check-result.js';
import { includesOrder } from './scope.js';

export interface AuthorizationFacts {
  readonly paymentAttempts: readonly PaymentAttemptFact[];
  readonly authorizations: readonly ProviderAuthorization[];
}

/** `authorize:<orderId>:<attempt>` (the payment service's key) names the order. */
export function orderOfKey(idempotencyKey: string): string | undefined {
  return /^authorize:(.+):[1-9][0-9]*$/.exec(idempotencyKey)?.[1];
}

interface Findings {
  readonly violations: Violation[];
  readonly pending: string[];
}

function groupBy<T>(items: readonly T[], key: (item: T) => string | undefined): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const value = key(item);
    if (value !== undefined) groups.set(value, [...(groups.get(value) ?? []), item]);
  }
  return groups;
}

function duplicates(authorizations: readonly ProviderAuthorization[], findings: Findings): void {
  for (const [key, group] of groupBy(authorizations, (entry) => entry.idempotencyKey)) {
    if (group.length > 1) {
      findings.violations.push({
        subject: `key ${key}`,
        detail: `${String(group.length)} authorizations under one idempotency key`,
      });
    }
  }
  for (const [orderId, group] of groupBy(authorizations, (entry) =>
    orderOfKey(entry.idempotencyKey),
  )) {
    if (group.length > 1) {
      const ids = group.map((entry) => entry.authorizationId).join(', ');
      findings.violations.push({
        subject: `order ${orderId}`,
        detail: `${String(group.length)} authorizations at the provider for one order (${ids}): the customer was charged more than once`,
      });
    }
  }
}

function judgeAttempt(
  attempt: PaymentAttemptFact,
  byId: ReadonlyMap<string, ProviderAuthorization>,
  context: CheckContext,
  findings: Findings,
): void {
  if (attempt.status !== 'authorized' && attempt.status !== 'voided') return;
  const subject = `attempt ${attempt.attemptId}`;
  const entry = attempt.authorizationId === null ? undefined : byId.get(attempt.authorizationId);
  if (entry === undefined) {
    findings.violations.push({
      subject,
      detail: `${attempt.status} with authorization ${attempt.authorizationId ?? '(none)'}, which the provider's ledger does not have`,
    });
    return;
  }
  if (entry.idempotencyKey !== `authorize:${attempt.attemptId}`) {
    findings.violations.push({
      subject,
      detail: `its authorization ${entry.authorizationId} was made under key ${entry.idempotencyKey}, not under the attempt's own`,
    });
  }
  if (entry.amountCents !== attempt.amountCents) {
    findings.violations.push({
      subject,
      detail: `the attempt is for ${String(attempt.amountCents)} cents, the provider authorized ${String(entry.amountCents)}`,
    });
  }
  if (attempt.status === 'voided' && entry.status !== 'voided') {
    findings.violations.push({
      subject,
      detail: `recorded as voided, but the provider still holds the money (${entry.authorizationId})`,
    });
  }
  if (attempt.status === 'authorized' && entry.status === 'voided') {
    const voidedAt = entry.voidedAt ?? entry.createdAt;
    if (isSettling(voidedAt, context))
      findings.pending.push(
        `${subject}: voided at the provider ${ageOf(voidedAt, context)} ago, not yet recorded`,
      );
    else
      findings.violations.push({
        subject,
        detail: `voided at the provider ${ageOf(voidedAt, context)} ago, but still recorded as authorized`,
      });
  }
}

/** An authorization no attempt records: money held that the shop would never release. */
function judgeUnrecorded(
  entry: ProviderAuthorization,
  context: CheckContext,
  findings: Findings,
): void {
  const subject = `authorization ${entry.authorizationId}`;
  const what = `made under key ${entry.idempotencyKey} ${ageOf(entry.createdAt, context)} ago, ${entry.status}`;
  if (isSettling(entry.createdAt, context)) {
    findings.pending.push(`${subject}: ${what}, not yet recorded by the payment service`);
  } else {
    findings.violations.push({ subject, detail: `${what}, and no payment attempt records it` });
  }
}

/**
 * @example
 * oneAuthorizationPerAttempt({ paymentAttempts, authorizations }, context).status // 'held'
 */
export function oneAuthorizationPerAttempt(
  facts: AuthorizationFacts,
  context: CheckContext,
): InvariantCheck {
  const authorizations = facts.authorizations.filter((entry) =>
    includesOrder(context.scope, orderOfKey(entry.idempotencyKey)),
  );
  const attempts = facts.paymentAttempts.filter((attempt) =>
    includesOrder(context.scope, attempt.orderId),
  );
  const findings: Findings = { violations: [], pending: [] };
  duplicates(authorizations, findings);
  // Looked up among every authorization: one made under a foreign key is still found.
  const byId = new Map(facts.authorizations.map((entry) => [entry.authorizationId, entry]));
  for (const attempt of attempts) judgeAttempt(attempt, byId, context, findings);
  const recorded = new Set(
    facts.paymentAttempts
      .filter((attempt) => attempt.status === 'authorized' || attempt.status === 'voided')
      .map((attempt) => attempt.authorizationId),
  );
  for (const entry of authorizations) {
    if (!recorded.has(entry.authorizationId)) judgeUnrecorded(entry, context, findings);
  }
  return finishCheck({
    name: 'one-authorization-per-attempt',
    title: 'One authorization per payment attempt',
    summary: `${count(attempts.length, 'payment attempt')} against ${count(authorizations.length, 'authorization')} in the provider's ledger; ${findings.violations.length === 0 ? 'they agree' : count(findings.violations.length, 'problem')}`,
    ...findings,
  });
}
