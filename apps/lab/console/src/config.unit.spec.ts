import { describe, expect, it } from 'vitest';
import { loadConsoleConfig } from './config.js';
import { TEST_STACK_PORTS, testStackTarget } from './testing/stack-target.fixtures.js';

const stack = testStackTarget({ ports: { ...TEST_STACK_PORTS, console: 3007 } });

describe('loadConsoleConfig', () => {
  it('reads the stack and fills in the defaults', () => {
    // Given only the stack, as the supervisor sets it
    const env = { CONSOLE_STACK: JSON.stringify(stack) };

    // When the configuration is read
    const config = loadConsoleConfig(env);

    // Then the stack is parsed and everything else has its default
    expect(config).toEqual({
      host: '127.0.0.1',
      port: 3007,
      logLevel: 'info',
      stack,
      eventStore: {
        backend: 'postgres',
        maxEventBytes: expect.any(Number) as unknown,
        pollIntervalMs: 500,
        wakeConsumers: 'one',
        idleCheck: true,
        notifyChannels: 'per-type',
        ackDelayMs: 100,
        maxConnections: 10,
      },
      heartbeatMs: 5_000,
      feedCapacity: 5_000,
      tracing: { to: 'off', endpoint: null },
    });
  });

  it('says where the stack’s spans go from the OTEL_* variables the supervisor hands every process', () => {
    const config = (otel: Record<string, string>) =>
      loadConsoleConfig({ CONSOLE_STACK: JSON.stringify(stack), PORT: '4007', ...otel });

    expect(
      config({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4007/v1/traces' }).tracing,
    ).toEqual({ to: 'console', endpoint: null });
    expect(config({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }).tracing).toEqual({
      to: 'elsewhere',
      endpoint: 'http://127.0.0.1:4318/v1/traces',
    });
  });

  it('takes the port, heartbeat and capacity given, and EventStoreDB when named', () => {
    const config = loadConsoleConfig({
      CONSOLE_STACK: JSON.stringify(stack),
      PORT: '4007',
      CONSOLE_HEARTBEAT_MS: '1000',
      CONSOLE_FEED_CAPACITY: '200',
      EVENTSTORE_CONNECTION_STRING: 'esdb://127.0.0.1:2113?tls=false',
    });

    expect(config).toMatchObject({ port: 4007, heartbeatMs: 1_000, feedCapacity: 200 });
    expect(config.eventStore.backend).toBe('eventstoredb');
  });

  it('reports every problem at once: a missing stack and a bad heartbeat', () => {
    expect(() => loadConsoleConfig({ CONSOLE_HEARTBEAT_MS: '10' })).toThrow(
      /Invalid configuration of console: .*CONSOLE_STACK is required.*CONSOLE_HEARTBEAT_MS/,
    );
  });

  it('refuses a stack that is not JSON or not a stack', () => {
    expect(() => loadConsoleConfig({ CONSOLE_STACK: '{nope' })).toThrow(
      /CONSOLE_STACK must be JSON/,
    );
    expect(() => loadConsoleConfig({ CONSOLE_STACK: '{"gatewayUrl":"x"}' })).toThrow(
      /CONSOLE_STACK/,
    );
  });
});
