// The way back for parked messages, decided where it can be decided safely:
// here, next to the consumer's markers and its replay horizon, before the
// store is asked to replay anything (the store knows neither). A parked
// message older than the horizon whose marker is gone may have been applied
// and its marker pruned since: replaying it could apply it a second time, so
// it is refused unless the operator forces it. See replay-safety.ts.
// Only registered when ADMIN_TOKEN is set; every call must carry it.
import {
  SubscriptionGroupError,
  type EventStore,
  type ParkedMessage,
} from '@effectively-once/event-store';
import { judgeReplays, type Consumer, type IdempotencyTables } from '@effectively-once/idempotency';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { inReplaySpans } from '../tracing/replay-spans.js';
import { authorizeAdmin } from './admin-token.js';
import type { FastifyZodInstance } from './create-http-server.js';
import { refusedReplayProblem } from './parked-replay.problems.js';
import { ProblemError } from './problem.js';

/** POST /admin/parked/replay and its per-message form: what was made deliverable again. */
export const ReplayedParked = z.object({
  consumer: z.string(),
  replayed: z.number().int().nonnegative(),
  /** Of those, how many were older than the replay horizon without a marker (only with `force`). */
  forced: z.number().int().nonnegative(),
});

const ReplayQuery = z.object({
  /** Which of the service's consumers; the first one when absent. */
  consumer: z.string().min(1).optional(),
  /**
   * Replay what the horizon refuses too. Dangerous: such a message may have
   * been applied already, and nothing would stop it being applied again.
   */
  force: z.stringbool().default(false),
});
const OneParked = z.object({ eventId: z.uuid() });

/** The parked messages to replay, each judged against the consumer's markers and horizon. */
function judged<Database extends IdempotencyTables>(
  db: Kysely<Database>,
  consumer: Consumer,
  parked: readonly ParkedMessage[],
  now: Date,
) {
  return judgeReplays(db, {
    consumer,
    now,
    candidates: parked.map(({ event }) => ({
      messageId: event.id,
      recordedAt: event.createdAt,
      event,
    })),
  });
}

/** EventStoreDB replays a parked list from its front only: its refusal, as a problem. */
async function replaySelection(store: EventStore, group: string, eventIds: string[]) {
  try {
    await store.replayParkedMessages(group, { eventIds });
  } catch (error) {
    if (!(error instanceof SubscriptionGroupError && error.code === 'PARKED_REPLAY_OUT_OF_ORDER')) {
      throw error;
    }
    throw new ProblemError({
      status: 409,
      code: 'PARKED_REPLAY_OUT_OF_ORDER',
      title: 'Parked messages are replayed oldest first on this store',
      detail: error.message,
    });
  }
}

/**
 * POST /admin/parked/replay?consumer=&force= replays a consumer's parked
 * messages; POST /admin/parked/{eventId}/replay?consumer=&force= one of them.
 * Each message is judged first (judgeReplays): if any is older than the
 * consumer's replay horizon and has no marker, nothing is replayed and the
 * answer is 409 PARKED_REPLAY_BEYOND_HORIZON naming those messages, unless
 * `force=true`. Only the messages judged are replayed: one parked meanwhile
 * waits for the next request.
 *
 * @example
 * registerParkedReplayRoutes(app, { db, store, consumers: [inventoryDemand], adminToken, now: () => new Date() });
 */
export function registerParkedReplayRoutes<Database extends IdempotencyTables>(
  app: FastifyZodInstance,
  input: {
    db: Kysely<Database>;
    store: EventStore;
    consumers: readonly Consumer[];
    adminToken: string | undefined;
    now: () => Date;
  },
): void {
  const { db, store, consumers, adminToken, now } = input;
  if (adminToken === undefined || consumers.length === 0) return;
  const pick = (asked: string | undefined): Consumer => {
    const found = asked === undefined ? consumers[0] : consumers.find((c) => c.name === asked);
    if (found === undefined) {
      throw new ProblemError({
        status: 404,
        code: 'UNKNOWN_CONSUMER',
        title: 'Unknown consumer',
        detail: `This service runs ${consumers.map((c) => c.name).join(', ')}, not ${asked ?? ''}.`,
      });
    }
    return found;
  };
  const replay = async (
    consumer: Consumer,
    parked: readonly ParkedMessage[],
    force: boolean,
    log: FastifyZodInstance['log'],
  ) => {
    const verdicts = await judged(db, consumer, parked, now());
    const beyond = verdicts.filter((verdict) => verdict.verdict === 'beyond_horizon');
    if (beyond.length > 0 && !force) {
      throw refusedReplayProblem(consumer, beyond, now());
    }
    if (beyond.length > 0) {
      log.warn(
        { consumer: consumer.name, eventIds: beyond.map((verdict) => verdict.messageId) },
        'parked messages older than the replay horizon, without a marker, replayed by force',
      );
    }
    const eventIds = verdicts.map((verdict) => verdict.messageId);
    if (eventIds.length > 0) {
      await inReplaySpans(
        {
          consumer: consumer.name,
          events: verdicts.map((verdict) => verdict.event),
          forced: new Set(beyond.map((verdict) => verdict.messageId)),
        },
        () => replaySelection(store, consumer.name, eventIds),
      );
    }
    return { consumer: consumer.name, replayed: eventIds.length, forced: beyond.length };
  };

  app.post(
    '/admin/parked/replay',
    { schema: { querystring: ReplayQuery, response: { 200: ReplayedParked } } },
    async (request) => {
      authorizeAdmin(request, adminToken);
      const consumer = pick(request.query.consumer);
      const parked = await store.listParkedMessages(consumer.name);
      return replay(consumer, parked, request.query.force, request.log);
    },
  );
  app.post(
    '/admin/parked/:eventId/replay',
    {
      schema: { params: OneParked, querystring: ReplayQuery, response: { 200: ReplayedParked } },
    },
    async (request) => {
      authorizeAdmin(request, adminToken);
      const consumer = pick(request.query.consumer);
      const { eventId } = request.params;
      const parked = (await store.listParkedMessages(consumer.name)).filter(
        ({ event }) => event.id === eventId,
      );
      if (parked.length === 0) {
        throw new ProblemError({
          status: 404,
          code: 'NOT_PARKED',
          title: 'No such parked message',
          detail: `${consumer.name} has no parked message ${eventId}.`,
        });
      }
      return replay(consumer, parked, request.query.force, request.log);
    },
  );
}
