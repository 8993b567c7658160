import { describe, expect, it } from 'vitest';
import { tracingExport } from './tracing-export.js';

const CONSOLE = { port: 3007, hostnames: ['localhost', '127.0.0.1', '[::1]', '192.168.1.20'] };

describe('tracingExport', () => {
  it('given the supervisor’s endpoint for the console, when read, then spans go to the console', () => {
    expect(
      tracingExport(
        { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:3007/v1/traces' },
        CONSOLE,
      ),
    ).toEqual({ to: 'console', endpoint: null });
  });

  it('given the console addressed by the host the stack runs on, when read, then spans go to the console', () => {
    expect(
      tracingExport(
        { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://192.168.1.20:3007/v1/traces' },
        CONSOLE,
      ),
    ).toEqual({ to: 'console', endpoint: null });
  });

  it('given an exporter other than OTLP, when read, then spans go elsewhere, to no OTLP endpoint', () => {
    expect(tracingExport({ OTEL_TRACES_EXPORTER: 'console' }, CONSOLE)).toEqual({
      to: 'elsewhere',
      endpoint: null,
    });
  });

  it('given an endpoint of one’s own, when read, then spans go there, with the traces path the SDK appends', () => {
    expect(
      tracingExport({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318/' }, CONSOLE),
    ).toEqual({ to: 'elsewhere', endpoint: 'http://127.0.0.1:4318/v1/traces' });
    // The per-signal variable wins over the general one, as the specification says
    expect(
      tracingExport(
        {
          OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:3007',
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces',
        },
        CONSOLE,
      ),
    ).toEqual({ to: 'elsewhere', endpoint: 'http://collector:4318/v1/traces' });
  });

  it('given the SDK disabled, no traces exporter, or no endpoint at all, when read, then tracing is off', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:3007/v1/traces' };
    expect(tracingExport({ ...endpoint, OTEL_SDK_DISABLED: 'TRUE' }, CONSOLE).to).toBe('off');
    expect(tracingExport({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' }, CONSOLE).to).toBe('off');
    expect(tracingExport({}, CONSOLE).to).toBe('off');
    expect(tracingExport({ ...endpoint, OTEL_SDK_DISABLED: 'false' }, CONSOLE).to).toBe('console');
  });
});
