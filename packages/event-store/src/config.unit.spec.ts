import { describe, expect, it } from 'vitest';
import { loadEventStoreConfig } from './config.js';

describe('loadEventStoreConfig', () => {
  it('without EVENTSTORE_CONNECTION_STRING, selects the embedded store with defaults', () => {
    expect(loadEventStoreConfig({})).toEqual({
      backend: 'postgres',
      maxEventBytes: 1024 * 1024,
      pollIntervalMs: 500,
    });
  });

  it('with an esdb:// connection string, selects EventStoreDB', () => {
    const config = loadEventStoreConfig({
      EVENTSTORE_CONNECTION_STRING: 'esdb://localhost:2113?tls=false',
      EVENTSTORE_MAX_EVENT_BYTES: '4096',
    });
    expect(config).toEqual({
      backend: 'eventstoredb',
      connectionString: 'esdb://localhost:2113?tls=false',
      maxEventBytes: 4096,
    });
  });

  it('refuses a bad value, naming the variable', () => {
    expect(() =>
      loadEventStoreConfig({ EVENTSTORE_CONNECTION_STRING: 'http://localhost:2113' }),
    ).toThrow(/EVENTSTORE_CONNECTION_STRING must be an esdb:\/\//);
    expect(() => loadEventStoreConfig({ EVENTSTORE_MAX_EVENT_BYTES: 'lots' })).toThrow(
      /EVENTSTORE_MAX_EVENT_BYTES/,
    );
  });
});
