import { describe, expect, it } from 'vitest';
import { loadLabSettings } from './config.js';

describe('loadLabSettings', () => {
  it('given no settings, then the console runs and lab mode is off', () => {
    expect(loadLabSettings({})).toEqual({ console: true, faults: { enabled: false } });
  });

  it('given STACK_CONSOLE=false, then the stack runs without the console', () => {
    expect(loadLabSettings({ STACK_CONSOLE: 'false' }).console).toBe(false);
  });

  it('given a FAULTS_TOKEN without STACK_FAULTS, then lab mode stays off', () => {
    expect(loadLabSettings({ FAULTS_TOKEN: 'a-token-that-is-long-enough' }).faults).toEqual({
      enabled: false,
    });
  });

  it('given STACK_FAULTS without a token, then a 32 hex character token is generated', () => {
    expect(loadLabSettings({ STACK_FAULTS: 'true' }).faults).toEqual({
      enabled: true,
      token: expect.stringMatching(/^[0-9a-f]{32}$/) as unknown,
    });
  });

  it('given STACK_FAULTS with a token, then that token is used', () => {
    const settings = loadLabSettings({
      STACK_FAULTS: 'true',
      FAULTS_TOKEN: 'lab-token-0123456789',
    });
    expect(settings.faults).toEqual({ enabled: true, token: 'lab-token-0123456789' });
  });

  it('given a short token or a STACK_FAULTS that is not a boolean, then the error names them', () => {
    expect(() => loadLabSettings({ STACK_FAULTS: 'sometimes', FAULTS_TOKEN: 'short' })).toThrow(
      /STACK_FAULTS .*FAULTS_TOKEN must be at least 16 characters/,
    );
  });
});
