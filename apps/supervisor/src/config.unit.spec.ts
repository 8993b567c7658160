import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_STATE_FILE, loadSupervisorConfig } from './config.js';

describe('loadSupervisorConfig', () => {
  it('given no settings, then the documented defaults apply', () => {
    const config = loadSupervisorConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      STACK_PORTS: 'fixed',
      STACK_SEED: true,
      STACK_RUNTIME: 'bundle',
    });
  });

  it('given STACK_RUNTIME=tsx, then the processes run their TypeScript through tsx', () => {
    expect(loadSupervisorConfig({ STACK_RUNTIME: 'tsx' }).STACK_RUNTIME).toBe('tsx');
  });

  it('given a bad value, then the error names the setting', () => {
    expect(() => loadSupervisorConfig({ PORT: 'eighty', STACK_PORTS: 'some' })).toThrow(
      /PORT .*STACK_PORTS|STACK_PORTS.*PORT/,
    );
  });

  it('given STACK_POSTGRES_SETTINGS, then the embedded server gets each name=value; unset, none', () => {
    expect(
      loadSupervisorConfig({
        STACK_POSTGRES_SETTINGS: 'shared_preload_libraries=pg_stat_statements; work_mem=8MB;',
      }).STACK_POSTGRES_SETTINGS,
    ).toEqual(['shared_preload_libraries=pg_stat_statements', 'work_mem=8MB']);
    expect(loadSupervisorConfig({}).STACK_POSTGRES_SETTINGS).toEqual([]);
    expect(() => loadSupervisorConfig({ STACK_POSTGRES_SETTINGS: 'fsync off' })).toThrow(
      /STACK_POSTGRES_SETTINGS.*name=value/,
    );
  });

  it('passes the event-store selection to the children but never the server-wide DATABASE_URL', () => {
    const config = loadSupervisorConfig({
      EVENTSTORE_CONNECTION_STRING: 'esdb://localhost:2113?tls=false',
      DATABASE_URL: 'postgres://admin@db/postgres',
    });
    expect(config.inheritedEnv).toEqual({
      EVENTSTORE_CONNECTION_STRING: 'esdb://localhost:2113?tls=false',
    });
  });

  it('passes every OpenTelemetry variable to the children as it is, for their SDK to read', () => {
    const config = loadSupervisorConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.1',
      OTEL_SDK_DISABLED: '',
    });
    expect(config.inheritedEnv).toEqual({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.1',
    });
  });

  it("passes the order saga's deadline settings to the children as they are", () => {
    const config = loadSupervisorConfig({
      ORDER_INVENTORY_DEADLINE_MS: '3000',
      ORDER_PAYMENT_DEADLINE_MS: '6000',
      ORDER_COMPLETE_DEADLINE_MS: '9000',
      ORDER_TIMER_POLL_MS: '100',
    });
    expect(config.inheritedEnv).toEqual({
      ORDER_INVENTORY_DEADLINE_MS: '3000',
      ORDER_PAYMENT_DEADLINE_MS: '6000',
      ORDER_COMPLETE_DEADLINE_MS: '9000',
      ORDER_TIMER_POLL_MS: '100',
    });
  });

  it('given no STACK_STATE_FILE, then the state file is .stack/stack.json in the repository', () => {
    const config = loadSupervisorConfig({});
    expect(config.stateFile).toBe(DEFAULT_STATE_FILE);
    const repoRoot = path.dirname(path.dirname(DEFAULT_STATE_FILE));
    expect(path.relative(repoRoot, DEFAULT_STATE_FILE)).toBe(path.join('.stack', 'stack.json'));
    expect(existsSync(path.join(repoRoot, 'pnpm-workspace.yaml'))).toBe(true);
  });

  it('given a relative STACK_STATE_FILE, then it is resolved against the working directory', () => {
    const config = loadSupervisorConfig({ STACK_STATE_FILE: 'tmp/state.json' });
    expect(config.stateFile).toBe(path.resolve('tmp/state.json'));
  });
});
