import type { Kysely } from 'kysely';
import type { Consumer } from './consumer.js';
import { judgeReplay, type ReplayCandidate, type ReplayVerdict } from './replay-safety.js';
import {
  markerView,
  type IdempotencyTables,
  type ProcessedMessage,
} from './processed-message.table.js';

/**
 * How many markers the consumer keeps: the table retention prunes, and the
 * gauge eo_processed_message_rows. It grows with traffic until pruned.
 *
 * @example
 * metrics.trackMarkerRows({ consumer: consumer.name, count: () => countMarkers(db, consumer.name) });
 */
export async function countMarkers<Database extends IdempotencyTables>(
  db: Kysely<Database>,
  consumerName: string,
): Promise<number> {
  const { count } = await markerView(db)
    .selectFrom('processed_message')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('consumer_name', '=', consumerName)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/**
 * The operator's first question after an incident: did consumer C commit
 * message M? A marker means its effect committed too; a marker whose effect
 * cannot be found means the invariant was broken and needs investigating.
 */
export async function findMarker<Database extends IdempotencyTables>(
  db: Kysely<Database>,
  consumerName: string,
  messageId: string,
): Promise<ProcessedMessage | undefined> {
  return markerView(db)
    .selectFrom('processed_message')
    .selectAll()
    .where('consumer_name', '=', consumerName)
    .where('message_id', '=', messageId)
    .executeTakeFirst();
}

/** One message's verdict, with whatever the caller keeps alongside it. */
export type JudgedReplay<Candidate extends ReplayCandidate = ReplayCandidate> = Candidate & {
  readonly verdict: ReplayVerdict;
};

/**
 * The verdict on replaying each message to `consumer` (see judgeReplay),
 * with its markers looked up in one query. Decide before asking the store to
 * replay: the store knows neither markers nor horizons.
 *
 * @example
 * const refused = (await judgeReplays(db, { consumer, candidates, now: new Date() }))
 *   .filter((judged) => judged.verdict === 'beyond_horizon');
 */
export async function judgeReplays<
  Database extends IdempotencyTables,
  Candidate extends ReplayCandidate,
>(
  db: Kysely<Database>,
  input: { consumer: Consumer; candidates: readonly Candidate[]; now: Date },
): Promise<JudgedReplay<Candidate>[]> {
  const { consumer, candidates, now } = input;
  if (candidates.length === 0) return [];
  const markers = await markerView(db)
    .selectFrom('processed_message')
    .select('message_id')
    .where('consumer_name', '=', consumer.name)
    .where(
      'message_id',
      'in',
      candidates.map((candidate) => candidate.messageId),
    )
    .execute();
  const marked = new Set(markers.map((marker) => marker.message_id));
  return candidates.map((candidate) => ({
    ...candidate,
    verdict: judgeReplay({
      recordedAt: candidate.recordedAt,
      markerFound: marked.has(candidate.messageId),
      replayHorizonMs: consumer.replayHorizonMs,
      now,
    }),
  }));
}

export class RetentionError extends Error {
  override readonly name = 'RetentionError';
}

export interface PruneOptions {
  consumer: Consumer;
  /** Markers older than this are deleted. Must be at least the consumer's replay horizon. */
  olderThanMs: number;
  now?: Date;
  /** Rows per DELETE, so a large prune never holds long locks. */
  batchSize?: number;
}

/**
 * Deletes a consumer's markers older than `olderThanMs`. Deleting a marker
 * declares that its message will never be delivered again: a later replay of
 * it would be applied a second time. So a window shorter than the consumer's
 * replay horizon is refused.
 *
 * @returns the number of markers deleted
 */
export async function pruneMarkers<Database extends IdempotencyTables>(
  db: Kysely<Database>,
  options: PruneOptions,
): Promise<number> {
  const { consumer, olderThanMs } = options;
  if (!Number.isFinite(olderThanMs) || olderThanMs < consumer.replayHorizonMs) {
    throw new RetentionError(
      `Refusing to prune markers of "${consumer.name}" older than ${String(olderThanMs)} ms: its replay horizon is ${String(consumer.replayHorizonMs)} ms, and a message replayed within the horizon whose marker is gone would be applied twice. Prune with olderThanMs >= ${String(consumer.replayHorizonMs)}, or shorten the consumer's replayHorizonMs after checking what can still be replayed.`,
    );
  }
  const cutoff = new Date((options.now ?? new Date()).getTime() - olderThanMs);
  const batchSize = options.batchSize ?? 10_000;
  let deleted = 0;
  for (;;) {
    const result = await markerView(db)
      .deleteFrom('processed_message')
      .where('consumer_name', '=', consumer.name)
      .where('message_id', 'in', (qb) =>
        qb
          .selectFrom('processed_message')
          .select('message_id')
          .where('consumer_name', '=', consumer.name)
          .where('processed_at', '<', cutoff)
          .limit(batchSize),
      )
      .executeTakeFirst();
    const count = Number(result.numDeletedRows);
    deleted += count;
    if (count < batchSize) return deleted;
  }
}
