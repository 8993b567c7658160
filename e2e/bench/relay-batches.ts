// How the services' outbox relays batched during a bench row. A batch marks
// its rows sent in one UPDATE, so they share its sent_at: the rows sent since
// a point, grouped by sent_at, are the batches, each with its streams (one
// appendToStreams, one event-store commit, holds them all).
import pg from 'pg';

export interface RelayBatches {
  batches: number;
  streams: number;
  rows: number;
}

/** The databases' clock now: where a row's window starts. */
export async function databaseNow(url: string): Promise<Date> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ now: Date }>('SELECT now() AS now');
    return rows[0]?.now ?? new Date(0);
  } finally {
    await client.end();
  }
}

/** Every batch the relays of these service databases sent after `since`, summed over them. */
export async function relayBatchesSince(
  serviceUrls: readonly string[],
  since: Date,
): Promise<RelayBatches> {
  const total: RelayBatches = { batches: 0, streams: 0, rows: 0 };
  for (const url of serviceUrls) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ batches: number; streams: number; rows: number }>(
        `SELECT count(*)::int AS batches, coalesce(sum(streams), 0)::int AS streams,
                coalesce(sum(rows), 0)::int AS rows
           FROM (SELECT count(DISTINCT stream_name) AS streams, count(*) AS rows
                   FROM outbox WHERE sent_at > $1 GROUP BY sent_at) batch`,
        [since],
      );
      total.batches += rows[0]?.batches ?? 0;
      total.streams += rows[0]?.streams ?? 0;
      total.rows += rows[0]?.rows ?? 0;
    } catch (error) {
      // A service without an outbox (no table) has no relay to count.
      if (!(error instanceof Error && 'code' in error && error.code === '42P01')) throw error;
    } finally {
      await client.end();
    }
  }
  return total;
}
