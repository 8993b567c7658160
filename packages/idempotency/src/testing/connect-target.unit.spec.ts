import { describe, expect, it } from 'vitest';
import { connectTarget } from './connect-target.js';

describe('connectTarget', () => {
  it.each([
    ['options with host and port', [{ host: '127.0.0.1', port: 2525 }], '127.0.0.1', 2525],
    ['options with a port only', [{ port: '443' }], 'localhost', 443],
    ['a port and a host', [5432, 'db.local'], 'db.local', 5432],
    ['a port as a numeric string', ['8080'], 'localhost', 8080],
    ['the normalized array net.connect passes', [[{ host: 'smtp', port: 25 }, null]], 'smtp', 25],
  ])('given %s, when read, then it is that TCP endpoint', (_form, args, host, port) => {
    expect(connectTarget(args)).toEqual({ kind: 'tcp', host, port });
  });

  it.each([
    ['a path', ['/tmp/.s.PGSQL.5432']],
    ['options with a path', [{ path: '/tmp/.s.PGSQL.5432' }]],
  ])('given %s, when read, then it is local IPC, not the network', (_form, args) => {
    expect(connectTarget(args)).toEqual({ kind: 'ipc', path: '/tmp/.s.PGSQL.5432' });
  });
});
