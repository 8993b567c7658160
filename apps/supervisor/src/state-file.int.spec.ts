// The state file on a real file system: written whole and private, read back
// through the shared schema, removed only by the stack that wrote it.
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StackState } from '@effectively-once/stack-protocol';
import { readStackState } from './state-file.js';
import { removeStateFile, writeStateFile } from './state-file.js';
import { FIXED_PORTS } from './stack.js';

const state: StackState = {
  gatewayUrl: 'http://127.0.0.1:3000',
  // A port and a field an extension added (stack-extension.ts): kept as written.
  ports: { ...FIXED_PORTS, extra: 3012 },
  databases: {
    adminUrl: 'postgres://pg@127.0.0.1:5432/postgres',
    order: 'postgres://pg@127.0.0.1:5432/eo_order',
    inventory: 'postgres://pg@127.0.0.1:5432/eo_inventory',
    payment: 'postgres://pg@127.0.0.1:5432/eo_payment',
    notification: 'postgres://pg@127.0.0.1:5432/eo_notification',
    paymentProvider: 'postgres://pg@127.0.0.1:5432/eo_payment_provider',
    eventStore: 'postgres://pg@127.0.0.1:5432/eo_event_store',
  },
  extension: { enabled: true },
  adminToken: 'admin-token-0123456789abcdef',
  pid: 4242,
  startedAt: '2025-01-01T10:00:00.000Z',
};

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'eo-state-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('the state file', () => {
  it('is written into missing directories, readable by its owner only, and reads back as written', async () => {
    const file = path.join(directory, 'nested', '.stack', 'stack.json');

    await writeStateFile(file, state);

    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readStackState(file)).toEqual(state);
    expect(await readdir(path.dirname(file))).toEqual(['stack.json']);
  });

  it('replaces an older file whole, keeping it private', async () => {
    const file = path.join(directory, 'stack.json');
    await writeFile(file, '{"stale":true}', { mode: 0o644 });

    await writeStateFile(file, { ...state, pid: 5151 });

    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readStackState(file)).pid).toBe(5151);
  });

  it('refuses to write a state that does not match the schema', async () => {
    const file = path.join(directory, 'stack.json');
    await expect(writeStateFile(file, { ...state, adminToken: 'short' })).rejects.toThrow(
      /adminToken/,
    );
    await expect(readStackState(file)).rejects.toThrow(/No stack state at .*is the stack running/);
  });

  it('is removed by the stack that wrote it and left alone by any other', async () => {
    const file = path.join(directory, 'stack.json');
    await writeStateFile(file, state);

    await removeStateFile(file, 9999);
    expect((await readStackState(file)).pid).toBe(4242);

    await removeStateFile(file, 4242);
    await expect(readStackState(file)).rejects.toThrow(/No stack state/);
    // A second removal finds nothing and does not fail.
    await removeStateFile(file, 4242);
  });
});
