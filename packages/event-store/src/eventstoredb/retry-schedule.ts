// "Not before" on EventStoreDB, which has no delayed nack (ADR 0009): a retry
// is a record in the group's retry stream, `eo-retry-<group>`, and a second
// persistent subscription (to that stream, same group name) hands each record
// back to a consumer, which waits until it is due and then delivers the
// original event again, with its original id.
import {
  PINNED,
  PersistentSubscriptionExistsError,
  ROUND_ROBIN,
  START,
  StreamNotFoundError,
  jsonEvent,
  persistentSubscriptionToStreamSettingsFromDefaults,
  type PersistentSubscriptionToAllSettings,
  type RecordedEvent as EsdbRecordedEvent,
} from '@eventstore/db-client';
import { z } from 'zod';
import type { RecordedEvent } from '../port/envelope.js';
import { MAX_RETRY_AFTER_MS } from '../port/subscription.js';
import type { EsdbClient } from './esdb-client.js';

/**
 * `$` in the type keeps the records out of every application group and read:
 * `excludeSystemEvents()`, the anchored type filters and `matchesFilter` all
 * skip `$` types, and no application stream prefix is `eo-retry-`.
 */
export const RETRY_SCHEDULED = '$eo.RetryScheduled';

export const retryStreamOf = (group: string): string => `eo-retry-${group}`;

const RetryRecordSchema = z.object({
  eventId: z.uuid(),
  streamName: z.string().min(1),
  revision: z.string().regex(/^\d+$/),
  /** The retryCount the redelivery carries: 0 when no retry before it was counted (`counted: false`). */
  retryCount: z.number().int().min(0),
  notBefore: z.iso.datetime(),
  reason: z.string(),
});

export type RetryRecord = z.output<typeof RetryRecordSchema>;

/**
 * The record that brings `event` back, as the `retryCount`-th retry, once `notBefore` is past.
 *
 * @example
 * await client.appendToStream(retryStreamOf(group), retryRecordEvent({ event, retryCount: 1, notBefore, reason }));
 */
export function retryRecordEvent(input: {
  event: RecordedEvent;
  retryCount: number;
  notBefore: Date;
  reason: string;
}) {
  const record: RetryRecord = {
    eventId: input.event.id,
    streamName: input.event.streamName,
    revision: input.event.revision.toString(),
    retryCount: input.retryCount,
    notBefore: input.notBefore.toISOString(),
    reason: input.reason,
  };
  return jsonEvent({ type: RETRY_SCHEDULED, data: record });
}

/** A record as read back, or why it is not one (the caller parks it). */
export function parseRetryRecord(
  event: EsdbRecordedEvent | undefined,
): RetryRecord | { invalid: string } {
  if (event === undefined) return { invalid: 'link to a deleted retry record' };
  const parsed = event.isJson ? RetryRecordSchema.safeParse(event.data) : undefined;
  if (event.type !== RETRY_SCHEDULED || parsed?.success !== true) {
    return { invalid: `event ${event.id} of type "${event.type}" is not a valid retry record` };
  }
  return parsed.data;
}

/**
 * The retry group mirrors the application group. A record stays unsettled
 * while it waits, so its timeout covers the longest wait plus the handler's;
 * its maxRetryCount counts the redeliveries of a record (a dead consumer, a
 * timeout), which the delivery's retryCount includes too. All its records are
 * in one stream, so `Pinned` would send every retry to one connection: a
 * pinned group's retry group is `RoundRobin`.
 */
export function retryGroupSettings(main: PersistentSubscriptionToAllSettings) {
  return persistentSubscriptionToStreamSettingsFromDefaults({
    startFrom: START,
    messageTimeout: MAX_RETRY_AFTER_MS + main.messageTimeout,
    maxRetryCount: main.maxRetryCount,
    consumerStrategyName:
      main.consumerStrategyName === PINNED ? ROUND_ROBIN : main.consumerStrategyName,
  });
}

/** Creates the retry group if it is missing: groups created before it existed get one too. */
export async function ensureRetryGroup(
  client: EsdbClient,
  group: string,
  main: PersistentSubscriptionToAllSettings,
): Promise<void> {
  try {
    await client.createPersistentSubscriptionToStream(
      retryStreamOf(group),
      group,
      retryGroupSettings(main),
    );
  } catch (error) {
    if (!(error instanceof PersistentSubscriptionExistsError)) throw error;
  }
}

/** The original event of a record, or undefined when it was deleted (or truncated) meanwhile. */
export async function readOriginal(
  client: EsdbClient,
  record: RetryRecord,
): Promise<EsdbRecordedEvent | undefined> {
  try {
    for await (const resolved of client.readStream(record.streamName, {
      fromRevision: BigInt(record.revision),
      maxCount: 1,
    })) {
      if (resolved.event?.id === record.eventId) return resolved.event;
    }
  } catch (error) {
    if (!(error instanceof StreamNotFoundError)) throw error;
  }
  return undefined;
}
