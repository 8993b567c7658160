import { describe, expect, it } from 'vitest';
import type { Upstreams } from './config.js';
import { replicaRotation } from './replica-rotation.js';

const ONE = ['http://127.0.0.1:1'] as const;
const upstreams: Upstreams = {
  order: ONE,
  inventory: ONE,
  payment: ['http://a:3003', 'http://b:3003', 'http://c:3003'],
  notification: ONE,
  'payment-provider': ONE,
  'mail-sink': ONE,
};

describe('replicaRotation', () => {
  it('given three replicas, when requests follow each other, then each starts at the next replica and tries every other after it', () => {
    const rotation = replicaRotation(upstreams);

    const tries = [1, 2, 3, 4].map(() => rotation.next('payment', '/p'));

    expect(tries).toEqual([
      { url: 'http://a:3003/p', alternates: ['http://b:3003/p', 'http://c:3003/p'] },
      { url: 'http://b:3003/p', alternates: ['http://c:3003/p', 'http://a:3003/p'] },
      { url: 'http://c:3003/p', alternates: ['http://a:3003/p', 'http://b:3003/p'] },
      { url: 'http://a:3003/p', alternates: ['http://b:3003/p', 'http://c:3003/p'] },
    ]);
  });

  it('given one replica, then every request goes there, with nothing to fall back on', () => {
    const rotation = replicaRotation(upstreams);

    const tries = [rotation.next('order', '/o'), rotation.next('order', '/o')];

    expect(tries).toEqual([
      { url: 'http://127.0.0.1:1/o', alternates: [] },
      { url: 'http://127.0.0.1:1/o', alternates: [] },
    ]);
  });
});
