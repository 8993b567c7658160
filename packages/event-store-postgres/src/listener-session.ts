// A subscriber's own connection, outside the pool: it LISTENs for appends and,
// for a persistent-subscription consumer, holds the session advisory locks that
// tell the other consumers it is alive and a member of its group. It listens
// on the channels its filter needs (append-channels.ts), not to every append.
import pg from 'pg';
import { EventStoreUnavailableError } from '@effectively-once/event-store/port/errors';
import type { SubscriptionFilter } from '@effectively-once/event-store/port/subscription';
import { Wakeup } from '@effectively-once/event-store';
import { announcedStreams, wakesFor } from './append-announcement.js';
import { channelsToListen, groupChannel, type NotifyChannels } from './append-channels.js';
import { CONSUMER_LOCK_NAMESPACE, LEADER_LOCK_NAMESPACE, MEMBER_LOCK_NAMESPACE } from './leases.js';
import { isChosenToWake } from './wake-choice.js';

export interface ListenerSession {
  readonly wakeup: Wakeup;
  /** Set when the connection broke; the subscription ends with it. */
  readonly failure: () => Error | undefined;
  /** Notifications this session's connection has received, woken by them or not. */
  readonly heard: () => number;
  close(): Promise<void>;
}

export interface ConsumerSession extends ListenerSession {
  readonly consumerId: number;
  /** Whether this consumer is (now) the single consumer of a dispatch_to_single group. */
  tryLead(groupId: number): Promise<boolean>;
  /**
   * Whether an append wakes this consumer only when it is the one chosen for
   * it among the group's members (wake-choice.ts), or whenever its filter
   * matches (every consumer of the group answers). The latter at first.
   */
  wakeOnlyWhenChosen(chosenOnly: boolean): void;
}

/** Whether a notification's payload wakes the subscriber; may ask the database first. */
type WakeDecision = (payload: string) => boolean | Promise<boolean>;

async function openClient(input: {
  url: string;
  applicationName: string;
  channels: readonly string[];
  wakes: WakeDecision;
}) {
  const { wakes } = input;
  const client = new pg.Client({
    connectionString: input.url,
    application_name: input.applicationName,
  });
  const wakeup = new Wakeup();
  let failure: Error | undefined;
  let heard = 0;
  client.on('notification', (message) => {
    heard++;
    void Promise.resolve(wakes(message.payload ?? '')).then(
      (woken) => {
        if (woken) wakeup.signal();
      },
      () => wakeup.signal(),
    );
  });
  client.on('error', (error) => {
    failure = new EventStoreUnavailableError(
      `The subscription's connection failed: ${error.message}`,
      { cause: error },
    );
    wakeup.signal();
  });
  await client.connect();
  // In one round trip; quoted, so that channel names keep their case.
  await client.query(
    input.channels.map((channel) => `LISTEN ${client.escapeIdentifier(channel)};`).join(' '),
  );
  return {
    client,
    wakeup,
    failure: () => failure,
    heard: () => heard,
    close: async () => {
      await client.end().catch(() => undefined);
    },
  };
}

/** For catch-up subscriptions: wake-ups only, for appends its filter matches. */
export async function openListenerSession(
  url: string,
  filter: SubscriptionFilter | undefined,
  notifyChannels: NotifyChannels,
): Promise<ListenerSession> {
  // Appends of events this subscriber's filter never delivers do not wake it.
  const { wakeup, failure, heard, close } = await openClient({
    url,
    applicationName: 'event-store-catch-up',
    channels: channelsToListen(filter, notifyChannels),
    wakes: (payload) => wakesFor(filter, payload),
  });
  return { wakeup, failure, heard, close };
}

/** How old the list of a group's members may be when a notification is shared out. */
const MEMBERS_MAX_AGE_MS = 1000;

/**
 * The group's live consumers, as the backend pids of the sessions holding its
 * member lock, read at most once per MEMBERS_MAX_AGE_MS, and only when a
 * notification asks. A list that cannot be read stays as it was (at first
 * empty, which wakes this consumer).
 */
function groupMembers(
  loadMembers: () => Promise<readonly number[]>,
): () => Promise<readonly number[]> {
  let members: readonly number[] = [];
  let loadedAt = -Infinity;
  let loading: Promise<void> | undefined;
  const load = async () => {
    members = await loadMembers();
    loadedAt = Date.now();
  };
  return async () => {
    if (Date.now() - loadedAt >= MEMBERS_MAX_AGE_MS) {
      loading ??= load()
        .catch(() => undefined)
        .finally(() => (loading = undefined));
      await loading;
    }
    return members;
  };
}

/**
 * For one consumer of a group: a new consumer id, locked for the life of this
 * connection, and the group's member lock, shared with its other consumers.
 * If the process is killed, the kernel closes its socket, the server ends the
 * session and the locks are gone at once; a half-open connection is caught by
 * the message timeout instead.
 *
 * @example
 * const session = await openConsumerSession(url, { groupId: group.group_id, filter: group.filter, loadMembers, notifyChannels: 'per-type' });
 */
export async function openConsumerSession(
  url: string,
  group: {
    groupId: number;
    filter: SubscriptionFilter;
    /** The group's members' pids (members.ts); not on this connection, see there. */
    loadMembers: () => Promise<readonly number[]>;
    notifyChannels: NotifyChannels;
  },
): Promise<ConsumerSession> {
  let chosenOnly = false;
  // Set once this session is a member; until then every matching append wakes it.
  let chosen: ((payload: string) => Promise<boolean>) | undefined;
  const opened = await openClient({
    url,
    applicationName: 'event-store-consumer',
    channels: [
      ...channelsToListen(group.filter, group.notifyChannels),
      groupChannel(group.groupId),
    ],
    wakes: (payload) => {
      // Appends of events this consumer's filter never delivers do not wake it.
      if (!wakesFor(group.filter, payload)) return false;
      return chosenOnly && chosen !== undefined ? chosen(payload) : true;
    },
  });
  const { client } = opened;
  try {
    const { rows } = await client.query<{ id: number; pid: number }>(
      "SELECT nextval('es_subscription_consumer_id_seq')::int AS id, pg_backend_pid() AS pid",
    );
    const consumer = rows[0];
    if (consumer === undefined) throw new Error('No consumer id was issued.');
    const consumerId = consumer.id;
    await client.query('SELECT pg_advisory_lock($1, $2), pg_advisory_lock_shared($3, $4)', [
      CONSUMER_LOCK_NAMESPACE,
      consumerId,
      MEMBER_LOCK_NAMESPACE,
      group.groupId,
    ]);
    const members = groupMembers(group.loadMembers);
    chosen = async (payload) =>
      isChosenToWake({
        streams: announcedStreams(payload),
        members: await members(),
        self: consumer.pid,
      });
    let leading = false;
    return {
      consumerId,
      wakeup: opened.wakeup,
      failure: opened.failure,
      heard: opened.heard,
      close: opened.close,
      wakeOnlyWhenChosen: (only) => {
        chosenOnly = only;
      },
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
