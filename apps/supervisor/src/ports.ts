import { findFreePort } from '@effectively-once/postgres';
import { extraReplicas, fixedReplicaPort, type ReplicaCounts } from './replicas.js';
import { FIXED_PORTS, type StackPorts } from './stack.js';
// lab:begin
import { FIXED_CONSOLE_PORT, FIXED_INVENTORY_2_PORT, FIXED_LAB_CONTROL_PORT } from './stack.js';
// lab:end

/**
 * The documented ports, or free ones picked once at start. They are kept for
 * the stack's life, so a restarted service comes back where the others expect it.
 *
 * @example
 * const ports = await choosePorts({ mode: 'auto', host: '127.0.0.1', gatewayPort: 0, lab: false, console: true });
 */
export async function choosePorts(input: {
  mode: 'fixed' | 'auto';
  host: string;
  gatewayPort: number;
  /** Lab mode: a port for inventory-2 and one for the lab-control server as well. */
  lab: boolean;
  /** STACK_CONSOLE: a port for the console process as well. */
  console: boolean;
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
    return {
      ...FIXED_PORTS,
      gateway,
      // lab:begin
      ...(input.lab
        ? { inventory2: FIXED_INVENTORY_2_PORT, labControl: FIXED_LAB_CONTROL_PORT }
        : {}),
      ...(input.console ? { console: FIXED_CONSOLE_PORT } : {}),
      // lab:end
    };
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
    // lab:begin
    ...(input.lab ? { inventory2: await pick(), labControl: await pick() } : {}),
    ...(input.console ? { console: await pick() } : {}),
    // lab:end
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
  return [...Object.values(single), ...Object.values(replicas ?? {})];
}
