// The customer's money: the card processor's ledger and the payment service's
// attempts must tell the same story. One authorization per idempotency key and
// per order (a second one is a double charge), each attempt that holds or held
// one backed by exactly one authorization that ended the same way (voided or
// captured at the provider too), and no authorization the shop has no record
// of once the answer had time to land.
import type { InvariantCheck, Violation } from '../audit.types.js';
import type { PaymentAttemptFact, ProviderAuthorization } from '../facts/facts.types.js';
import { ageOf, count, finishCheck, isSettling, type CheckContext } from './check-result.js';
import { groupBy } from './group-by.js';
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

/** The statuses in which an attempt holds, or held, an authorization at the provider. */
const WITH_AUTHORIZATION: ReadonlySet<string> = new Set(['authorized', 'voided', 'captured']);

function judgeAttempt(
  attempt: PaymentAttemptFact,
  byId: ReadonlyMap<string, ProviderAuthorization>,
  context: CheckContext,
  findings: Findings,
): void {
  if (!WITH_AUTHORIZATION.has(attempt.status)) return;
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
  judgeEnding(attempt, entry, context, findings);
}

/**
 * How the authorization ended must match the attempt. The provider ends it
 * first and the payment service records that after, so an attempt still
 * `authorized` behind a provider that already voided or captured is on its
 * way for the settle time; any other difference is broken at once.
 */
function judgeEnding(
  attempt: PaymentAttemptFact,
  entry: ProviderAuthorization,
  context: CheckContext,
  findings: Findings,
): void {
  const subject = `attempt ${attempt.attemptId}`;
  if (attempt.status === entry.status) return;
  if (attempt.status === 'authorized') {
    const endedAt =
      (entry.status === 'captured' ? entry.capturedAt : entry.voidedAt) ?? entry.createdAt;
    const what = `${entry.status} at the provider ${ageOf(endedAt, context)} ago`;
    if (isSettling(endedAt, context))
      findings.pending.push(`${subject}: ${what}, not yet recorded`);
    else findings.violations.push({ subject, detail: `${what}, but still recorded as authorized` });
    return;
  }
  findings.violations.push({ subject, detail: endingMismatch(attempt.status, entry) });
}

function endingMismatch(recorded: string, entry: ProviderAuthorization): string {
  const id = entry.authorizationId;
  if (entry.status !== 'authorized')
    return `recorded as ${recorded}, but the provider ${entry.status} it (${id})`;
  return recorded === 'captured'
    ? `recorded as captured, but the provider never captured it (${id} is still authorized): the money was not taken`
    : `recorded as ${recorded}, but the provider still holds the money (${id})`;
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
      .filter((attempt) => WITH_AUTHORIZATION.has(attempt.status))
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
