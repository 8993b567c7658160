import { afterEach, describe, expect, it, vi } from 'vitest';
import { newIdempotencyKey } from './idempotency-key.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('idempotency key', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('given a secure context, when a key is made, then it is a fresh version-4 UUID', () => {
    const first = newIdempotencyKey();

    expect(first).toMatch(UUID_V4);
    expect(newIdempotencyKey()).not.toBe(first);
  });

  it('given a page without crypto.randomUUID (plain http), when a key is made, then it is still a version-4 UUID', () => {
    vi.stubGlobal('crypto', {
      getRandomValues: <T extends Uint8Array>(bytes: T): T => bytes.fill(0xff),
    });

    expect(newIdempotencyKey()).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
  });
});
