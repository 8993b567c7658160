import { idempotencyMigrations } from '@effectively-once/idempotency';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { loadMarkers } from './load-markers.js';

const { db } = await createTestDatabase<unknown>(idempotencyMigrations);

describe('loadMarkers', () => {
  it('given processed_message rows, when loaded, then each is a marker of the named database', async () => {
    await sql`INSERT INTO processed_message (consumer_name, message_id)
              VALUES ('inventory-reservation-v1', 'm-1'), ('*', 'm-2')`.execute(db);

    const markers = await loadMarkers(db, 'inventory');

    expect(markers).toEqual(
      expect.arrayContaining([
        { database: 'inventory', consumer: 'inventory-reservation-v1', messageId: 'm-1' },
        { database: 'inventory', consumer: '*', messageId: 'm-2' },
      ]),
    );
    expect(markers).toHaveLength(2);
  });
});
