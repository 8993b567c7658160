import { describe, expect, it } from 'vitest';
import { loadSupervisorConfig } from '../config.js';

// The lab's settings, read by loadSupervisorConfig through lab-config.ts.
describe('loadSupervisorConfig with the lab', () => {
  it('given no settings, then the console runs', () => {
    expect(loadSupervisorConfig({})).toMatchObject({ STACK_CONSOLE: true });
  });

  it('given STACK_CONSOLE=false, then the stack runs without the console', () => {
    expect(loadSupervisorConfig({ STACK_CONSOLE: 'false' }).STACK_CONSOLE).toBe(false);
  });

  it('given STACK_FAULTS without a token, then a 32 hex character token is generated', () => {
    const config = loadSupervisorConfig({ STACK_FAULTS: 'true' });
    expect(config.faults).toEqual({
      enabled: true,
      token: expect.stringMatching(/^[0-9a-f]{32}$/) as unknown,
    });
  });

  it('given STACK_FAULTS with a token, then that token is used', () => {
    const config = loadSupervisorConfig({
      STACK_FAULTS: 'true',
      FAULTS_TOKEN: 'lab-token-0123456789',
    });
    expect(config.faults).toEqual({ enabled: true, token: 'lab-token-0123456789' });
  });

  it('given a short token or a STACK_FAULTS that is not a boolean, then the error names them', () => {
    expect(() =>
      loadSupervisorConfig({ STACK_FAULTS: 'sometimes', FAULTS_TOKEN: 'short' }),
    ).toThrow(/STACK_FAULTS .*FAULTS_TOKEN must be at least 16 characters/);
  });
});
