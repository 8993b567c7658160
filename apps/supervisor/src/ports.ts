import { findFreePort } from '@effectively-once/postgres';
import { extraReplicas, fixedReplicaPort, type ReplicaCounts } from './replicas.js';
import type { ExtensionPortsContext } from './stack-extension.js';
import { FIXED_PORTS, type StackPorts } from './stack.js';

/**
 * The documented ports, or free ones picked once at start. They are kept for
 * the stack's life, so a restarted service comes back where the others expect it.
 *
 * @example
 * const ports = await choosePorts({ mode: 'auto', host: '127.0.0.1', gatewayPort: 0 });
 */
export async function choosePorts(input: {
  mode: 'fixed' | 'auto';
  host: string;
  gatewayPort: number;
}): Promise<StackPorts> {
  // A fixed gateway port is not bound yet either: no service may be given it.
  const taken = new Set<number>(input.gatewayPort === 0 ? [] : [input.gatewayPort]);
  const pick = async (): Promise<number> => {
    for (;;) {
      const port = await findFreePort(input.host);
      if (!taken.has(port)) {
        taken.add(port);
        return port;
      }
    }
  };
  const gateway = input.gatewayPort === 0 ? await pick() : input.gatewayPort;
  if (input.mode === 'fixed') {
    return { ...FIXED_PORTS, gateway };
  }
  return {
    gateway,
    order: await pick(),
    inventory: await pick(),
    payment: await pick(),
    notification: await pick(),
    paymentProvider: await pick(),
    mailSink: await pick(),
    smtp: await pick(),
  };
}

/**
 * A port for every replica after the first (STACK_REPLICAS), by its name:
 * 100 above the one before with fixed ports, free ones not among `ports` otherwise.
 *
 * @example
 * await chooseReplicaPorts({ mode: 'fixed', host, ports, counts: { ...ONE_EACH, payment: 2 } }); // { 'payment-2': 3103 }
 */
export async function chooseReplicaPorts(input: {
  mode: 'fixed' | 'auto';
  host: string;
  ports: StackPorts;
  counts: ReplicaCounts;
}): Promise<Readonly<Record<string, number>>> {
  const chosen: Record<string, number> = {};
  const taken = new Set<number>(portNumbers(input.ports));
  for (const replica of extraReplicas(input.counts)) {
    if (input.mode === 'fixed') {
      chosen[replica.name] = fixedReplicaPort(input.ports[replica.service], replica.n);
      continue;
    }
    let port = await findFreePort(input.host);
    while (taken.has(port)) port = await findFreePort(input.host);
    taken.add(port);
    chosen[replica.name] = port;
  }
  return chosen;
}

/**
 * Every port the stack's processes listen on, replicas included.
 *
 * @example
 * portNumbers({ ...FIXED_PORTS, replicas: { 'payment-2': 3103 } }); // [3000, 3001, …, 2525, 3103]
 */
export function portNumbers(ports: StackPorts): number[] {
  const { replicas, ...single } = ports;
  // An extension's ports are kept beside the stack's, by name (stack-extension.ts).
  const named = Object.values(single).filter((port) => typeof port === 'number');
  return [...named, ...Object.values(replicas ?? {})];
}

/**
 * What an extension is given to choose its ports: the mode, the stack's ports
 * so far, and free ones that none of them has.
 *
 * @example
 * const context = extensionPortsContext({ mode: 'auto', host: '127.0.0.1', ports });
 * await context.pick(); // 41873
 */
export function extensionPortsContext(input: {
  mode: 'fixed' | 'auto';
  host: string;
  ports: StackPorts;
}): ExtensionPortsContext {
  const taken = new Set<number>(portNumbers(input.ports));
  return {
    mode: input.mode,
    ports: input.ports,
    pick: async () => {
      let port = await findFreePort(input.host);
      while (taken.has(port)) port = await findFreePort(input.host);
      taken.add(port);
      return port;
    },
  };
}
