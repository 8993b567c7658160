import { describe, expect, it } from 'vitest';
import { loadEventStoreConfig } from './config.js';

describe('loadEventStoreConfig', () => {
  it('without EVENTSTORE_CONNECTION_STRING, selects the embedded store with defaults', () => {
    expect(loadEventStoreConfig({})).toEqual({
      backend: 'postgres',
      maxEventBytes: 1024 * 1024,
      pollIntervalMs: 500,
      ackDelayMs: 100,
      wakeConsumers: 'one',
      idleCheck: true,
      notifyChannels: 'per-type',
      maxConnections: 10,
    });
  });

  it('takes the size of each embedded-store pool from EVENTSTORE_POOL_MAX, and refuses one under 1', () => {
    expect(loadEventStoreConfig({ EVENTSTORE_POOL_MAX: '3' })).toMatchObject({ maxConnections: 3 });
    expect(() => loadEventStoreConfig({ EVENTSTORE_POOL_MAX: '0' })).toThrow(/EVENTSTORE_POOL_MAX/);
  });

  it('takes the ack delay from EVENTSTORE_ACK_DELAY_MS, 0 included, and refuses one over 5 s', () => {
    expect(loadEventStoreConfig({ EVENTSTORE_ACK_DELAY_MS: '0' })).toMatchObject({ ackDelayMs: 0 });
    expect(loadEventStoreConfig({ EVENTSTORE_ACK_DELAY_MS: '250' })).toMatchObject({
      ackDelayMs: 250,
    });
    expect(() => loadEventStoreConfig({ EVENTSTORE_ACK_DELAY_MS: '5001' })).toThrow(
      /EVENTSTORE_ACK_DELAY_MS/,
    );
  });

  it('takes whether a poll checks before its round from EVENTSTORE_IDLE_CHECK, on or off', () => {
    expect(loadEventStoreConfig({ EVENTSTORE_IDLE_CHECK: 'off' })).toMatchObject({
      idleCheck: false,
    });
    expect(() => loadEventStoreConfig({ EVENTSTORE_IDLE_CHECK: 'yes' })).toThrow(
      /EVENTSTORE_IDLE_CHECK/,
    );
  });

  it('takes which channels subscribers listen on from EVENTSTORE_NOTIFY_CHANNELS, per-type or one', () => {
    expect(loadEventStoreConfig({ EVENTSTORE_NOTIFY_CHANNELS: 'one' })).toMatchObject({
      notifyChannels: 'one',
    });
    expect(() => loadEventStoreConfig({ EVENTSTORE_NOTIFY_CHANNELS: 'all' })).toThrow(
      /EVENTSTORE_NOTIFY_CHANNELS/,
    );
  });

  it('takes who answers an append from EVENTSTORE_WAKE_CONSUMERS, one or all', () => {
    expect(loadEventStoreConfig({ EVENTSTORE_WAKE_CONSUMERS: 'all' })).toMatchObject({
      wakeConsumers: 'all',
    });
    expect(() => loadEventStoreConfig({ EVENTSTORE_WAKE_CONSUMERS: 'some' })).toThrow(
      /EVENTSTORE_WAKE_CONSUMERS/,
    );
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

  it.each([
    'esdb+discover://cluster.example.com:2113?tls=true&nodePreference=follower',
    'esdb://node1.example.com:2113,node2.example.com:2113,node3.example.com:2113?tls=true&tlsCAFile=/certs/ca/ca.crt&nodePreference=leader',
    'esdb://admin:changeit@127.0.0.1:2111,127.0.0.1:2112,127.0.0.1:2113?tls=true&tlsCAFile=infra/certs/ca/ca.crt&nodePreference=random',
    'kurrentdb+discover://cluster.example.com:2113',
  ])('accepts the cluster connection string %s and keeps it whole', (connectionString) => {
    expect(loadEventStoreConfig({ EVENTSTORE_CONNECTION_STRING: ` ${connectionString} ` })).toEqual(
      { backend: 'eventstoredb', connectionString, maxEventBytes: 1024 * 1024 },
    );
  });

  it('refuses a connection string of another scheme', () => {
    expect(() =>
      loadEventStoreConfig({ EVENTSTORE_CONNECTION_STRING: 'https://node1.example.com:2113' }),
    ).toThrow(/EVENTSTORE_CONNECTION_STRING must be an esdb:\/\/ connection string/);
  });
});
