import { describe, expect, it } from 'vitest';
import { loadFaultsConfig } from './config.js';

describe('the lab settings', () => {
  const TOKEN = 'a-lab-token-of-32-characters-xyz';

  it('turn lab mode on with its token', () => {
    // Given what the supervisor passes a service in lab mode, when the lab reads it
    const config = loadFaultsConfig({ FAULTS_ENABLED: 'true', FAULTS_TOKEN: TOKEN });

    // Then lab mode is on
    expect(config).toEqual({ enabled: true, token: TOKEN });
  });

  it('keep lab mode off when FAULTS_ENABLED is false, empty or unset, whatever the token', () => {
    expect(loadFaultsConfig({ FAULTS_ENABLED: 'false', FAULTS_TOKEN: TOKEN })).toEqual({
      enabled: false,
    });
    expect(loadFaultsConfig({ FAULTS_ENABLED: '', FAULTS_TOKEN: TOKEN })).toEqual({
      enabled: false,
    });
    expect(loadFaultsConfig({})).toEqual({ enabled: false });
  });

  it('refuse lab mode without a token, naming FAULTS_TOKEN', () => {
    expect(() => loadFaultsConfig({ FAULTS_ENABLED: 'true' })).toThrow(
      /FAULTS_TOKEN is required when FAULTS_ENABLED=true/,
    );
  });

  it('refuse a short token and a FAULTS_ENABLED that is not a boolean, both at once', () => {
    const load = () => loadFaultsConfig({ FAULTS_ENABLED: 'maybe', FAULTS_TOKEN: 'short' });

    expect(load).toThrow(/FAULTS_ENABLED must be true or false/);
    expect(load).toThrow(/FAULTS_TOKEN must be at least 16 characters/);
  });
});
