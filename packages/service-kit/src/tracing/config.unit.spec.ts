import { describe, expect, it } from 'vitest';
import { disabledInstrumentations, tracingEnabled } from './config.js';

describe('tracingEnabled', () => {
  it.each([
    [{}, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }, true],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:3007/v1/traces' }, true],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: '' }, false],
    [{ OTEL_TRACES_EXPORTER: 'console' }, true],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_TRACES_EXPORTER: 'none' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'TRUE' }, false],
  ])('given %o, then %s', (env, expected) => {
    expect(tracingEnabled(env)).toBe(expected);
  });
});

describe('disabledInstrumentations', () => {
  it.each([
    [{}, []],
    [{ OTEL_NODE_DISABLED_INSTRUMENTATIONS: 'pg' }, ['pg']],
    [{ OTEL_NODE_DISABLED_INSTRUMENTATIONS: ' pg , http,' }, ['pg', 'http']],
    // Instrumentations the kit does not run change nothing.
    [{ OTEL_NODE_DISABLED_INSTRUMENTATIONS: 'fs,express' }, []],
  ])('given %o, then %o', (env, expected) => {
    expect([...disabledInstrumentations(env)]).toEqual(expected);
  });

  it('refuses a full package name, which would otherwise disable nothing', () => {
    expect(() =>
      disabledInstrumentations({
        OTEL_NODE_DISABLED_INSTRUMENTATIONS: '@opentelemetry/instrumentation-pg',
      }),
    ).toThrow(/"@opentelemetry\/instrumentation-pg" is not an instrumentation's name.*=pg/);
  });
});
