// The types of embedded-event-store.js, written against the event-store port
// rather than taken from the package, so they hold with the package deleted.
// embedded-event-store.unit.spec.ts checks that the package still fits them.
import type { EventStore, EventStoreConfig } from '@effectively-once/event-store';
import type { Migrations } from '@effectively-once/postgres';

/** The embedded store's settings: the port's configuration of it, and its database. */
export type EmbeddedEventStoreOptions = Omit<
  Extract<EventStoreConfig, { backend: 'postgres' }>,
  'backend'
> & { url: string };

/** What the service kit uses of `@effectively-once/event-store-postgres`. */
export interface EmbeddedEventStore {
  readonly createPostgresEventStore: (options: EmbeddedEventStoreOptions) => EventStore;
  readonly eventStoreMigrations: Migrations;
}

/**
 * Loads the embedded store's package; rejects with an error that names the
 * setting to change when the package is not installed.
 *
 * @example
 * const { createPostgresEventStore } = await loadEmbeddedEventStore();
 */
export declare function loadEmbeddedEventStore(): Promise<EmbeddedEventStore>;
