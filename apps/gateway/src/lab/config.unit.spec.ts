import { describe, expect, it } from 'vitest';
import { loadLabGatewaySettings } from './config.js';

describe('loadLabGatewaySettings', () => {
  it('given no CONSOLE_URL, then there is no console', () => {
    expect(loadLabGatewaySettings({})).toEqual({ consoleUrl: undefined });
  });

  it('given a CONSOLE_URL, then it is read without its trailing slash', () => {
    expect(loadLabGatewaySettings({ CONSOLE_URL: 'http://127.0.0.1:3007/' })).toEqual({
      consoleUrl: 'http://127.0.0.1:3007',
    });
  });

  it('given a CONSOLE_URL that is no http URL, then the error names it', () => {
    expect(() => loadLabGatewaySettings({ CONSOLE_URL: 'ftp://x' })).toThrow(/CONSOLE_URL/);
  });
});
