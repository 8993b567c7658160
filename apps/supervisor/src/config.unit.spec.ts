import { describe, expect, it } from 'vitest';
import { loadSupervisorConfig } from './config.js';

describe('loadSupervisorConfig', () => {
  it('given no settings, then the documented defaults apply', () => {
    const config = loadSupervisorConfig({});
    expect(config).toMatchObject({ PORT: 3000, STACK_PORTS: 'fixed', STACK_SEED: true });
  });

  it('given a bad value, then the error names the setting', () => {
    expect(() => loadSupervisorConfig({ PORT: 'eighty', STACK_PORTS: 'some' })).toThrow(
      /PORT .*STACK_PORTS|STACK_PORTS.*PORT/,
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
});
