import { describe, expect, it } from 'vitest';
import { defineStack } from './stack.js';
import { defaultInput, processNamed as spec } from './testing/stack-fixture.js';

describe('each process’s tracing resource', () => {
  const replicated = defineStack({
    ...defaultInput,
    version: '1.2.3',
    replicas: {
      counts: { order: 1, inventory: 1, payment: 2, notification: 1 },
      ports: { 'payment-2': 3103 },
    },
  });

  it('names the service, the replica and the version the standard way', () => {
    expect(spec('payment-2', replicated).env).toMatchObject({
      OTEL_SERVICE_NAME: 'payment',
      OTEL_RESOURCE_ATTRIBUTES: 'service.instance.id=payment-2,service.version=1.2.3',
    });
    expect(spec('payment-provider', replicated).env['OTEL_SERVICE_NAME']).toBe('payment-provider');
    expect(spec('gateway', replicated).env['OTEL_SERVICE_NAME']).toBe('gateway');
  });

  it('keeps the attributes the user set, after its own so that theirs win', () => {
    const specs = defineStack({
      ...defaultInput,
      version: '1.2.3',
      inheritedEnv: { PATH: '/usr/bin', OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=lab' },
    });
    expect(spec('order', specs).env['OTEL_RESOURCE_ATTRIBUTES']).toBe(
      'service.instance.id=order,service.version=1.2.3,deployment.environment=lab',
    );
  });

  it('exports nowhere by default: no exporter variable unless the user sets one', () => {
    for (const process of defineStack(defaultInput)) {
      expect(Object.keys(process.env).filter((key) => key.startsWith('OTEL_EXPORTER'))).toEqual([]);
    }
  });

  it('passes the user’s exporter through to every process', () => {
    const specs = defineStack({
      ...defaultInput,
      inheritedEnv: {
        PATH: '/usr/bin',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      },
    });
    for (const process of specs) {
      expect(process.env).toMatchObject({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      });
    }
  });
});
