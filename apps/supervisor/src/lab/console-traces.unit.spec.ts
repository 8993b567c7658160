import { describe, expect, it } from 'vitest';
import { FIXED_PORTS } from '../stack.js';
import { FIXED_LAB_PORTS } from './lab-mode.js';
import { defineLabStack } from './testing/lab-stack-fixture.js';
import { defaultInput } from '../testing/stack-fixture.js';

const withConsole = {
  ...defaultInput,
  console: true,
  ports: { ...FIXED_PORTS, console: FIXED_LAB_PORTS.console },
};

describe('the console as the stack’s trace collector', () => {
  it('gets every process’s spans, as OTLP/HTTP JSON, when the user chose no exporter', () => {
    const specs = defineLabStack(withConsole);
    expect(specs.map((process) => process.name)).toContain('console');
    for (const process of specs) {
      expect(process.env).toMatchObject({
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:3007/v1/traces',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      });
    }
  });

  it('has them exported every 500 ms in batches of up to 2,048 spans, unless the user set these', () => {
    for (const process of defineLabStack(withConsole)) {
      expect(process.env).toMatchObject({
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '2048',
        OTEL_BSP_MAX_QUEUE_SIZE: '8192',
        OTEL_BSP_SCHEDULE_DELAY: '500',
      });
    }
    const userSized = defineLabStack({
      ...withConsole,
      inheritedEnv: {
        PATH: '/usr/bin',
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '512',
        OTEL_BSP_SCHEDULE_DELAY: '5000',
      },
    });
    for (const process of userSized) {
      expect(process.env['OTEL_BSP_MAX_EXPORT_BATCH_SIZE']).toBe('512');
      expect(process.env['OTEL_BSP_SCHEDULE_DELAY']).toBe('5000');
      expect(process.env['OTEL_BSP_MAX_QUEUE_SIZE']).toBe('8192');
    }
  });

  it('gives way to the user’s endpoint: every process exports there instead', () => {
    const specs = defineLabStack({
      ...withConsole,
      inheritedEnv: { PATH: '/usr/bin', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' },
    });
    for (const process of specs) {
      expect(process.env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']).toBeUndefined();
      expect(process.env['OTEL_EXPORTER_OTLP_ENDPOINT']).toBe('http://collector:4318');
    }
  });
});
