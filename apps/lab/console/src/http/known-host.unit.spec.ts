import { describe, expect, it } from 'vitest';
import {
  hostnameOf,
  LOOPBACK_HOSTNAMES,
  stackHostnames,
  unknownHostRefusal,
} from './known-host.js';

describe('unknownHostRefusal', () => {
  it('given a request to a loopback name, with or without the gateway, when checked, then it passes', () => {
    for (const host of ['localhost:3000', '127.0.0.1:3000', '[::1]:3000', 'LOCALHOST:3000']) {
      expect(unknownHostRefusal({ host, forwardedHost: undefined }, LOOPBACK_HOSTNAMES)).toBe(
        undefined,
      );
      expect(
        unknownHostRefusal({ host: '127.0.0.1:3007', forwardedHost: host }, LOOPBACK_HOSTNAMES),
      ).toBeUndefined();
    }
  });

  it('given a rebound name (the other site resolves to 127.0.0.1), when checked, then it is refused', () => {
    // Given the browser's Host still names the other site, through the gateway or directly
    const rebound = 'evil.example:3000';

    // Then both are refused, naming the host
    expect(
      unknownHostRefusal({ host: '127.0.0.1:3007', forwardedHost: rebound }, LOOPBACK_HOSTNAMES),
    ).toMatch(/not to evil\.example/);
    expect(
      unknownHostRefusal({ host: rebound, forwardedHost: undefined }, LOOPBACK_HOSTNAMES),
    ).toMatch(/not to evil\.example/);
  });

  it('given the host the stack was started on, when it is known, then it passes', () => {
    const known = [...LOOPBACK_HOSTNAMES, '192.168.1.20'];

    expect(
      unknownHostRefusal({ host: '192.168.1.20:3000', forwardedHost: undefined }, known),
    ).toBeUndefined();
  });

  it('given no Host at all, when checked, then it is refused', () => {
    expect(
      unknownHostRefusal({ host: undefined, forwardedHost: undefined }, LOOPBACK_HOSTNAMES),
    ).toBe('The request names no host.');
  });
});

describe('hostnameOf', () => {
  it('given Host values, when reduced, then only the lower-case name remains', () => {
    expect(hostnameOf('Localhost:3000')).toBe('localhost');
    expect(hostnameOf('[::1]:3000')).toBe('[::1]');
    expect(hostnameOf('example.test')).toBe('example.test');
  });
});

describe('stackHostnames', () => {
  it('given the listen host and the gateway URL, when listed, then both names remain but a wildcard', () => {
    expect(stackHostnames({ host: '127.0.0.1', gatewayUrl: 'http://192.168.1.20:3000' })).toEqual([
      '127.0.0.1',
      '192.168.1.20',
    ]);
    expect(stackHostnames({ host: '0.0.0.0', gatewayUrl: 'http://[::1]:3000' })).toEqual(['[::1]']);
  });
});
