import { describe, expect, it } from 'vitest';
import { overSocket, socketDirectory } from './unix-socket.js';

describe('socketDirectory', () => {
  it('given a cluster in a short temporary directory, then the socket goes in its data directory', () => {
    expect(socketDirectory('/tmp/effectively-once-pg-AbC123', 54_321)).toBe(
      '/tmp/effectively-once-pg-AbC123/data',
    );
  });

  it('given a kept cluster whose socket path would not fit in sun_path, then there is no socket', () => {
    const deep = `/home/someone/${'projects/'.repeat(10)}cluster`;
    expect(socketDirectory(deep, 54_321)).toBeUndefined();
  });
});

describe('overSocket', () => {
  it("given a server URL, then only libpq's host parameter is added: user, port and database stay", () => {
    const url = overSocket('postgres://postgres:pw@127.0.0.1:54321/postgres', '/tmp/pg dir/data');
    const parsed = new URL(url);

    expect(parsed.searchParams.get('host')).toBe('/tmp/pg dir/data');
    expect(`${parsed.username}:${parsed.password}@${parsed.host}${parsed.pathname}`).toBe(
      'postgres:pw@127.0.0.1:54321/postgres',
    );
  });
});
