// Which replica of a service a request goes to. The replicas take turns
// (round robin, per route group), and a request the first one never received
// (its connection refused: it is down or restarting) goes to the others in
// turn, so a dead replica costs a refused connection, never a failed request.
// undici's BalancedPool spreads requests too, but a retry through it may pick
// the same dead replica again: with one of two replicas down and one retry
// each, 2 of 10 concurrent POSTs got 503 that way. Here every attempt of a
// request goes to a different replica.
import type { ServiceName } from '@effectively-once/contracts';
import type { Replicas, Upstreams } from './config.js';

export interface ReplicaRotation {
  /** Where the next request for `path` goes first, and the replicas it tries after, in order. */
  next(service: ServiceName, path: string): { url: string; alternates: string[] };
}

/**
 * @example
 * const rotation = replicaRotation({ ...upstreams, payment: ['http://a:3003', 'http://b:3003'] });
 * rotation.next('payment', '/payments/42'); // { url: 'http://a:3003/payments/42', alternates: ['http://b:3003/payments/42'] }
 * rotation.next('payment', '/payments/42'); // { url: 'http://b:3003/payments/42', alternates: ['http://a:3003/payments/42'] }
 */
export function replicaRotation(upstreams: Upstreams): ReplicaRotation {
  const turns = new Map<ServiceName, number>();
  return {
    next: (service, path) => {
      const replicas: Replicas = upstreams[service];
      const turn = turns.get(service) ?? 0;
      turns.set(service, (turn + 1) % replicas.length);
      const [first, ...after] = [...replicas.slice(turn), ...replicas.slice(0, turn)];
      return {
        url: (first ?? replicas[0]) + path,
        alternates: after.map((base) => base + path),
      };
    },
  };
}
