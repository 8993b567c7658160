// The failure laboratory's teaching mistakes: each a whole-transaction attempt
// flow that gets the marker wrong, one file each. processOnce never imports
// them; the lab plugs one in for a consumer through its processing hooks
// (`attemptFor`). 'ack-before-commit' is a delivery mistake and lives in the
// service kit's lab.
import type { AttemptStrategy } from '@effectively-once/idempotency';
import { checkThenAct } from './check-then-act.js';
import { inMemoryCache } from './in-memory-cache.js';
import { markerAfterBusiness } from './marker-after-business.js';
import { markerOwnTransactionFirst } from './marker-own-transaction-first.js';
import { messageIdAlone } from './message-id-alone.js';
import { perInstanceConsumerName } from './per-instance-consumer-name.js';

export const MARKER_MISTAKES = [
  'check-then-act',
  'marker-own-transaction-first',
  'marker-after-business',
  'message-id-alone',
  'in-memory-cache',
  'per-instance-consumer-name',
] as const;
export type MarkerMistake = (typeof MARKER_MISTAKES)[number];

/** The flow to run instead of attemptOnce when the lab switches a mistake on. */
export const MISTAKEN_ATTEMPTS: Readonly<Record<MarkerMistake, AttemptStrategy>> = {
  'check-then-act': checkThenAct,
  'marker-own-transaction-first': markerOwnTransactionFirst,
  'marker-after-business': markerAfterBusiness,
  'message-id-alone': messageIdAlone,
  'in-memory-cache': inMemoryCache,
  'per-instance-consumer-name': perInstanceConsumerName,
};

// What a restart does to the in-process mistakes, for the lab's tests.
export { forgetInMemoryMarkers } from './in-memory-cache.js';
export { setInstanceIdForTesting } from './per-instance-consumer-name.js';
