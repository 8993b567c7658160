// A subscriber's own connection, outside the pool: it LISTENs for appends and,
// for a persistent-subscription consumer, holds the session advisory lock that
// tells the other consumers it is alive.
import pg from 'pg';
import { EventStoreUnavailableError } from '../port/errors.js';
import type { SubscriptionFilter } from '../port/subscription.js';
import { Wakeup } from '../wakeup.js';
import { wakesFor } from './append-announcement.js';
import { APPENDED_CHANNEL } from './append-statement.js';
import { CONSUMER_LOCK_NAMESPACE, LEADER_LOCK_NAMESPACE } from './leases.js';

export interface ListenerSession {
  readonly wakeup: Wakeup;
  /** Set when the connection broke; the subscription ends with it. */
  readonly failure: () => Error | undefined;
  close(): Promise<void>;
}

export interface ConsumerSession extends ListenerSession {
  readonly consumerId: number;
  /** Whether this consumer is (now) the single consumer of a dispatch_to_single group. */
  tryLead(groupId: number): Promise<boolean>;
}

async function openClient(
  url: string,
  applicationName: string,
  filter: SubscriptionFilter | undefined,
) {
  const client = new pg.Client({ connectionString: url, application_name: applicationName });
  const wakeup = new Wakeup();
  let failure: Error | undefined;
  // Appends of events this subscriber's filter never delivers do not wake it.
  client.on('notification', (message) => {
    if (wakesFor(filter, message.payload ?? '')) wakeup.signal();
  });
  client.on('error', (error) => {
    failure = new EventStoreUnavailableError(
      `The subscription's connection failed: ${error.message}`,
      { cause: error },
    );
    wakeup.signal();
  });
  await client.connect();
  await client.query(`LISTEN ${APPENDED_CHANNEL}`);
  return {
    client,
    wakeup,
    failure: () => failure,
    close: async () => {
      await client.end().catch(() => undefined);
    },
  };
}

/** For catch-up subscriptions: wake-ups only, for appends its filter matches. */
export async function openListenerSession(
  url: string,
  filter: SubscriptionFilter | undefined,
): Promise<ListenerSession> {
  const { wakeup, failure, close } = await openClient(url, 'event-store-catch-up', filter);
  return { wakeup, failure, close };
}

/**
 * For one consumer of a group: a new consumer id, locked for the life of this
 * connection. If the process is killed, the kernel closes its socket, the
 * server ends the session and the lock is gone at once; a half-open
 * connection is caught by the message timeout instead.
 *
 * @example
 * const session = await openConsumerSession(url, group.filter);
 */
export async function openConsumerSession(
  url: string,
  filter: SubscriptionFilter,
): Promise<ConsumerSession> {
  const opened = await openClient(url, 'event-store-consumer', filter);
  const { client } = opened;
  try {
    const { rows } = await client.query<{ id: number }>(
      "SELECT nextval('es_subscription_consumer_id_seq')::int AS id",
    );
    const consumerId = rows[0]?.id;
    if (consumerId === undefined) throw new Error('No consumer id was issued.');
    await client.query('SELECT pg_advisory_lock($1, $2)', [CONSUMER_LOCK_NAMESPACE, consumerId]);
    let leading = false;
    return {
      consumerId,
      wakeup: opened.wakeup,
      failure: opened.failure,
      close: opened.close,
      tryLead: async (groupId) => {
        if (!leading) {
          const result = await client.query<{ locked: boolean }>(
            'SELECT pg_try_advisory_lock($1, $2) AS locked',
            [LEADER_LOCK_NAMESPACE, groupId],
          );
          leading = result.rows[0]?.locked === true;
        }
        return leading;
      },
    };
  } catch (error) {
    await opened.close();
    throw error;
  }
}
