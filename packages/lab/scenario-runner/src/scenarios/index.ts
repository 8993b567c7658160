// Every scenario, in the order `pnpm scenario --all` runs them, and every
// common mistake paired with the scenario it breaks.
import type { MistakeDemonstration, Scenario } from '../scenario.js';
import { cancelBeforePlace } from './cancel-before-place.js';
import { cancelRacingAuthorize } from './cancel-racing-authorize.js';
import { concurrentDeliveries } from './concurrent-deliveries.js';
import { crashAfterBusiness } from './crash-after-business.js';
import { crashAfterCapture } from './crash-after-capture.js';
import { crashAfterClaim } from './crash-after-claim.js';
import { crashAfterEmailSent } from './crash-after-email-sent.js';
import { crashAfterProviderAuthorized } from './crash-after-provider-authorized.js';
import { crashBeforeAck } from './crash-before-ack.js';
import { deadlineAfterCrash } from './deadline-after-crash.js';
import { duplicateDelivery } from './duplicate-delivery.js';
import { malformedEvent } from './malformed-event.js';
import { oldReplay } from './old-replay.js';
import { oneEventTwoConsumers } from './one-event-two-consumers.js';
import { orderingKey } from './ordering-key.js';
import { poisonMessage } from './poison-message.js';
import { providerOutageDeadline } from './provider-outage-deadline.js';
import { providerOutageIsolation } from './provider-outage-isolation.js';
import { winnerCommits, winnerRollsBack } from './racing-claims.js';
import { relayCrashAfterAppend } from './relay-crash-after-append.js';
import { replayAfterPruneRefused } from './replay-after-prune-refused.js';
import { restockRetry } from './restock-retry.js';
import { semanticDuplicate } from './semantic-duplicate.js';
import { serializationFailure } from './serialization-failure.js';
import { slowSmtp } from './slow-smtp.js';
import { providerTimeout } from './provider-timeout.js';
import { unknownToken } from './unknown-token.js';
import { DEMAND, RESERVATION } from './support.js';
import { dbBlackhole } from './network/db-blackhole.js';
import { dbConnectionReset } from './network/db-connection-reset.js';
import { dbLatency } from './network/db-latency.js';
import { providerTrickle } from './network/provider-trickle.js';
import { smtpBlackhole } from './network/smtp-blackhole.js';
import { backendTerminated } from './infrastructure/backend-terminated.js';
import { lowDbTimeouts } from './infrastructure/low-db-timeouts.js';
import { postgresRestart } from './infrastructure/postgres-restart.js';
import { providerDown, smtpDown } from './infrastructure/process-down.js';
import { replicasChaos } from './infrastructure/replicas-chaos.js';

export const SCENARIOS: readonly Scenario[] = [
  crashBeforeAck,
  duplicateDelivery,
  concurrentDeliveries,
  winnerCommits,
  winnerRollsBack,
  serializationFailure,
  crashAfterClaim,
  crashAfterBusiness,
  providerTimeout,
  crashAfterProviderAuthorized,
  crashAfterCapture,
  relayCrashAfterAppend,
  crashAfterEmailSent,
  cancelBeforePlace,
  cancelRacingAuthorize,
  unknownToken,
  semanticDuplicate,
  poisonMessage,
  malformedEvent,
  oneEventTwoConsumers,
  oldReplay,
  replayAfterPruneRefused,
  providerOutageIsolation,
  orderingKey,
  slowSmtp,
  restockRetry,
  deadlineAfterCrash,
  providerOutageDeadline,
  // The network between the processes, broken by the supervisor's fault proxy (docs/fault-proxy.md).
  dbLatency,
  dbConnectionReset,
  dbBlackhole,
  smtpBlackhole,
  providerTrickle,
  backendTerminated,
  lowDbTimeouts,
  postgresRestart(),
  providerDown(),
  smtpDown(),
  replicasChaos,
];

const onDemand = [
  { service: 'inventory', consumer: DEMAND },
  { service: 'inventory-2', consumer: DEMAND },
] as const;

export const MISTAKES: readonly MistakeDemonstration[] = [
  {
    name: 'mistake-check-then-act',
    mistake: 'check-then-act',
    scenario: concurrentDeliveries.name,
    switches: onDemand,
    breaks: 'demand-counted-once',
    summary:
      'Both processes SELECT, find no marker, and both count the order: the tally rises twice.',
  },
  {
    name: 'mistake-marker-own-transaction-first',
    mistake: 'marker-own-transaction-first',
    scenario: crashAfterClaim.name,
    switches: onDemand,
    breaks: 'demand-counted-once',
    summary:
      'The marker commits on its own; the crash loses the tally change; the redelivery is a "duplicate": the order is never counted.',
  },
  {
    name: 'mistake-marker-after-business',
    mistake: 'marker-after-business',
    scenario: crashAfterBusiness.name,
    switches: onDemand,
    breaks: 'demand-counted-once',
    summary:
      'The tally commits before the marker exists; the crash comes in between; the redelivery counts the order again.',
  },
  {
    name: 'mistake-ack-before-commit',
    mistake: 'ack-before-commit',
    scenario: crashAfterClaim.name,
    switches: onDemand,
    breaks: 'demand-counted-once',
    summary:
      'The delivery is acknowledged before the transaction commits; the crash loses the change and the store never delivers the message again.',
  },
  {
    name: 'mistake-message-id-alone',
    mistake: 'message-id-alone',
    scenario: oneEventTwoConsumers.name,
    switches: [
      { service: 'inventory', consumer: DEMAND },
      { service: 'inventory-2', consumer: DEMAND },
      { service: 'inventory', consumer: RESERVATION },
      { service: 'inventory-2', consumer: RESERVATION },
    ],
    breaks: 'demand-counted-once',
    summary:
      'Both consumers claim the same key; the tally, claiming second, is told the message is a duplicate and never counts the order.',
  },
  {
    name: 'mistake-in-memory-cache',
    mistake: 'in-memory-cache',
    scenario: crashBeforeAck.name,
    switches: onDemand,
    breaks: 'demand-counted-once',
    summary:
      'The guard lives in the process\u2019s memory; the crash empties it; the redelivery counts the order again.',
  },
  {
    name: 'mistake-per-instance-consumer-name',
    mistake: 'per-instance-consumer-name',
    scenario: crashBeforeAck.name,
    switches: onDemand,
    breaks: 'demand-counted-once',
    summary:
      'The consumer name includes the process id; the restarted process has a new name, finds no marker and counts the order again.',
  },
];

export function findScenario(name: string): Scenario | undefined {
  return SCENARIOS.find((scenario) => scenario.name === name);
}

export function findMistake(name: string): MistakeDemonstration | undefined {
  return MISTAKES.find((demonstration) => demonstration.name === name);
}
