// STACK_REPLICAS: how many processes of each saga service the stack runs.
// Replicas share their service's database, event-store consumer groups and
// outbox (one relay at a time holds its lock), so they split its deliveries;
// each is its own process, restarted on its own, with a port and a name of
// its own (`payment-2`), and the gateway spreads requests over all of them.
// Pure: parsing, names and fixed ports, unit-tested.

export const REPLICATED_SERVICES = ['order', 'inventory', 'payment', 'notification'] as const;
export type ReplicatedService = (typeof REPLICATED_SERVICES)[number];
export type ReplicaCounts = Readonly<Record<ReplicatedService, number>>;

/** Enough to show work split and a replica dying; a two-core machine runs out long before. */
export const MAX_REPLICAS = 8;

export const ONE_EACH: ReplicaCounts = Object.freeze({
  order: 1,
  inventory: 1,
  payment: 1,
  notification: 1,
});

const isReplicated = (name: string): name is ReplicatedService =>
  (REPLICATED_SERVICES as readonly string[]).includes(name);

/**
 * Reads `order=2,payment=3`: services not named run once. Throws, naming the
 * entry, on an unknown service, a count outside 1-MAX_REPLICAS, a repeat.
 *
 * @example
 * parseReplicaCounts('payment=2'); // { order: 1, inventory: 1, payment: 2, notification: 1 }
 */
export function parseReplicaCounts(text: string): ReplicaCounts {
  const counts: Record<ReplicatedService, number> = { ...ONE_EACH };
  const seen = new Set<string>();
  for (const entry of text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const match = /^([a-z-]+)=(\d+)$/.exec(entry);
    const [, name = '', count = ''] = match ?? [];
    if (match === null) {
      throw new Error(`"${entry}" is not <service>=<count>, e.g. payment=2`);
    }
    if (!isReplicated(name)) {
      throw new Error(
        `"${name}" cannot run as replicas; these can: ${REPLICATED_SERVICES.join(', ')}`,
      );
    }
    if (seen.has(name)) throw new Error(`${name} is given twice`);
    seen.add(name);
    const replicas = Number(count);
    if (replicas < 1 || replicas > MAX_REPLICAS) {
      throw new Error(`${name}=${count}: the count must be 1 to ${String(MAX_REPLICAS)}`);
    }
    counts[name] = replicas;
  }
  return counts;
}

/**
 * The process name of a service's `n`th replica: the service's own for the first.
 *
 * @example
 * replicaName('payment', 1); // 'payment'
 * replicaName('payment', 2); // 'payment-2'
 */
export function replicaName(service: string, n: number): string {
  return n === 1 ? service : `${service}-${String(n)}`;
}

/**
 * With STACK_PORTS=fixed, replica `n` listens 100 above replica `n - 1`:
 * payment-2 on 3103, payment-3 on 3203.
 *
 * @example
 * fixedReplicaPort(3003, 2); // 3103
 */
export function fixedReplicaPort(firstPort: number, n: number): number {
  return firstPort + 100 * (n - 1);
}

/** Every replica after the first, by name, with the service it belongs to. */
export function extraReplicas(
  counts: ReplicaCounts,
): { name: string; service: ReplicatedService; n: number }[] {
  return REPLICATED_SERVICES.flatMap((service) =>
    Array.from({ length: counts[service] - 1 }, (_unused, index) => ({
      name: replicaName(service, index + 2),
      service,
      n: index + 2,
    })),
  );
}
