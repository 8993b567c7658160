import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadServiceConfig } from './config.js';
import { consumerSettings } from './consumer/consumer-settings.js';

const DATABASE_URL = 'postgres://eo@127.0.0.1:5432/order';
const EVENT_STORE_DATABASE_URL = 'postgres://eo@127.0.0.1:5432/event_store';

describe('loadServiceConfig', () => {
  it('fills in the defaults around the two database URLs', () => {
    // Given only the required variables
    const env = { DATABASE_URL, EVENT_STORE_DATABASE_URL };

    // When the configuration is loaded
    const config = loadServiceConfig({ service: 'order', defaultPort: 3001, env });

    // Then every other value has its default
    expect(config).toEqual({
      service: 'order',
      host: '127.0.0.1',
      port: 3001,
      databaseUrl: DATABASE_URL,
      databasePoolMax: 10,
      logLevel: 'info',
      eventStore: {
        backend: 'postgres',
        maxEventBytes: 1_048_576,
        pollIntervalMs: 500,
        wakeConsumers: 'one',
        idleCheck: true,
        notifyChannels: 'per-type',
        ackDelayMs: 100,
        maxConnections: 10,
      },
      eventStoreDatabaseUrl: EVENT_STORE_DATABASE_URL,
      consumer: {
        concurrency: 4,
        messageTimeoutMs: 30_000,
        maxRetryCount: 30,
        newGroupStart: 'horizon',
        batchSize: 16,
      },
    });
  });

  it('sizes the pools from DATABASE_POOL_MAX and EVENTSTORE_POOL_MAX, and refuses a pool of none', () => {
    // Given a deployment that sizes its pools
    const env = {
      DATABASE_URL,
      EVENT_STORE_DATABASE_URL,
      DATABASE_POOL_MAX: '4',
      EVENTSTORE_POOL_MAX: '2',
    };

    // When the configuration is loaded
    const config = loadServiceConfig({ service: 'order', defaultPort: 3001, env });

    // Then both sizes are taken, and a size of 0 is refused by name
    expect(config.databasePoolMax).toBe(4);
    expect(config.eventStore).toMatchObject({ maxConnections: 2 });
    expect(() =>
      loadServiceConfig({
        service: 'order',
        defaultPort: 3001,
        env: { ...env, DATABASE_POOL_MAX: '0' },
      }),
    ).toThrow(/DATABASE_POOL_MAX/);
  });

  it('names the process by SERVICE_INSTANCE_ID, none when unset, and refuses a name with spaces', () => {
    // Given a replica the supervisor (or a pod) names
    const env = { DATABASE_URL, EVENT_STORE_DATABASE_URL, SERVICE_INSTANCE_ID: 'payment-2' };

    // When the configuration is loaded
    const config = loadServiceConfig({ service: 'payment', defaultPort: 3003, env });

    // Then the name is kept; without it there is none; a bad one is refused by name
    expect(config.instance).toBe('payment-2');
    expect(
      loadServiceConfig({
        service: 'payment',
        defaultPort: 3003,
        env: { DATABASE_URL, EVENT_STORE_DATABASE_URL },
      }).instance,
    ).toBeUndefined();
    expect(() =>
      loadServiceConfig({
        service: 'payment',
        defaultPort: 3003,
        env: { ...env, SERVICE_INSTANCE_ID: 'payment two' },
      }),
    ).toThrow(/SERVICE_INSTANCE_ID/);
  });

  it("parses the service's own keys, typed by their schema, and treats empty values as unset", () => {
    // Given a service with its own setting and an empty PORT
    const env = { DATABASE_URL, EVENT_STORE_DATABASE_URL, PORT: '', PROVIDER_TIMEOUT_MS: '2500' };

    // When it is loaded with that key's schema
    const config = loadServiceConfig({
      service: 'payment',
      defaultPort: 3003,
      extra: {
        PROVIDER_TIMEOUT_MS: z.coerce.number().int().positive(),
        PROVIDER_URL: z.url().default('http://127.0.0.1:3005'),
      },
      env,
    });

    // Then the extra keys come back by name, defaults applied
    expect(config.port).toBe(3003);
    expect(config.PROVIDER_TIMEOUT_MS).toBe(2500);
    expect(config.PROVIDER_URL).toBe('http://127.0.0.1:3005');
  });

  it('needs no EVENT_STORE_DATABASE_URL when EventStoreDB is selected', () => {
    const config = loadServiceConfig({
      service: 'order',
      defaultPort: 3001,
      env: { DATABASE_URL, EVENTSTORE_CONNECTION_STRING: 'esdb://localhost:2113?tls=false' },
    });

    expect(config.eventStore.backend).toBe('eventstoredb');
    expect(config.eventStoreDatabaseUrl).toBeUndefined();
  });

  it('names every bad or missing key and its rule in one error', () => {
    // Given a deployment with several mistakes at once
    const env = { PORT: 'eighty', LOG_LEVEL: 'loud', PROVIDER_TIMEOUT_MS: '-1' };

    // When it is loaded, then one error lists them all
    const load = () =>
      loadServiceConfig({
        service: 'payment',
        defaultPort: 3003,
        extra: { PROVIDER_TIMEOUT_MS: z.coerce.number().int().positive() },
        env,
      });
    expect(load).toThrow(/^Invalid configuration of payment: /);
    expect(load).toThrow(/PORT must be a port number/);
    expect(load).toThrow(/DATABASE_URL is required/);
    expect(load).toThrow(/LOG_LEVEL .*"info"/);
    expect(load).toThrow(/PROVIDER_TIMEOUT_MS .*>0/);
    expect(load).toThrow(
      /EVENT_STORE_DATABASE_URL is required unless EVENTSTORE_CONNECTION_STRING/,
    );
  });

  it('refuses a database URL that is not a postgres:// URL, and a bad event-store setting', () => {
    const load = () =>
      loadServiceConfig({
        service: 'order',
        defaultPort: 3001,
        env: {
          DATABASE_URL: 'mysql://localhost/order',
          EVENT_STORE_DATABASE_URL,
          EVENTSTORE_POLL_INTERVAL_MS: '1',
        },
      });

    expect(load).toThrow(/DATABASE_URL must be a postgres:\/\/ connection URL/);
    expect(load).toThrow(/EVENTSTORE_POLL_INTERVAL_MS/);
  });
});

describe('consumer tuning', () => {
  it('reads the consumer tuning', () => {
    // Given a deployment that tunes its consumers
    const env = {
      DATABASE_URL,
      EVENT_STORE_DATABASE_URL,
      CONSUMER_CONCURRENCY: '1',
      CONSUMER_MESSAGE_TIMEOUT_MS: '3000',
      CONSUMER_MAX_RETRY_COUNT: '5',
      CONSUMER_BATCH_SIZE: '1',
    };

    // When the configuration is loaded
    const config = loadServiceConfig({ service: 'inventory', defaultPort: 3002, env });

    // Then startConsumer gets the tuning through consumerSettings
    expect(config.consumer).toEqual({
      concurrency: 1,
      messageTimeoutMs: 3000,
      maxRetryCount: 5,
      newGroupStart: 'horizon',
      batchSize: 1,
    });
    expect(consumerSettings(config)).toEqual({
      concurrency: 1,
      batchSize: 1,
      groupSettings: { messageTimeoutMs: 3000, maxRetryCount: 5 },
    });
  });

  it('passes a full replay for new groups on only when CONSUMER_NEW_GROUP_START=start asks for it', () => {
    const load = (CONSUMER_NEW_GROUP_START: string) =>
      loadServiceConfig({
        service: 'inventory',
        defaultPort: 3002,
        env: { DATABASE_URL, EVENT_STORE_DATABASE_URL, CONSUMER_NEW_GROUP_START },
      });

    expect(consumerSettings(load('start')).groupSettings).toMatchObject({ startFrom: 'start' });
    expect(consumerSettings(load('horizon')).groupSettings).not.toHaveProperty('startFrom');
    expect(() => load('beginning')).toThrow(/CONSUMER_NEW_GROUP_START must be horizon or start/);
  });

  it('refuses tuning out of range along with every other problem', () => {
    const load = () =>
      loadServiceConfig({
        service: 'order',
        defaultPort: 3001,
        env: {
          DATABASE_URL,
          EVENT_STORE_DATABASE_URL,
          PORT: 'x',
          CONSUMER_CONCURRENCY: '0',
          CONSUMER_MESSAGE_TIMEOUT_MS: '100',
          CONSUMER_MAX_RETRY_COUNT: '2.5',
          CONSUMER_BATCH_SIZE: '0',
        },
      });

    expect(load).toThrow(/PORT must be a port number/);
    expect(load).toThrow(/CONSUMER_CONCURRENCY must be an integer from 1 to 64/);
    expect(load).toThrow(/CONSUMER_MESSAGE_TIMEOUT_MS must be an integer from 500 to 600000/);
    expect(load).toThrow(/CONSUMER_MAX_RETRY_COUNT must be an integer from 0 to 1000/);
    expect(load).toThrow(/CONSUMER_BATCH_SIZE must be an integer from 1 to 64/);
  });
});
