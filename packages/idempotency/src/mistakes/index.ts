import type { AttemptResult, ProbedAttempt } from '../attempt-once.js';
import type { MarkerMistake } from '../probe/processing-probe.js';
import type { IdempotencyTables } from '../processed-message.table.js';
import { checkThenAct } from './check-then-act.js';
import { inMemoryCache } from './in-memory-cache.js';
import { markerAfterBusiness } from './marker-after-business.js';
import { markerOwnTransactionFirst } from './marker-own-transaction-first.js';
import { messageIdAlone } from './message-id-alone.js';
import { perInstanceConsumerName } from './per-instance-consumer-name.js';

type MistakenAttempt = <Database extends IdempotencyTables, Result>(
  attempt: ProbedAttempt<Database, Result>,
) => Promise<AttemptResult<Result>>;

/** The flow processOnce runs instead of its own when the lab switches a mistake on. */
export const MISTAKEN_ATTEMPTS: Readonly<Record<MarkerMistake, MistakenAttempt>> = {
  'check-then-act': checkThenAct,
  'marker-own-transaction-first': markerOwnTransactionFirst,
  'marker-after-business': markerAfterBusiness,
  'message-id-alone': messageIdAlone,
  'in-memory-cache': inMemoryCache,
  'per-instance-consumer-name': perInstanceConsumerName,
};
