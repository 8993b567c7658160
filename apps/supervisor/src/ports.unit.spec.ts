import { describe, expect, it } from 'vitest';
import { choosePorts, extensionPortsContext, portNumbers } from './ports.js';
import { FIXED_PORTS } from './stack.js';

describe('choosePorts with fixed ports', () => {
  it('given a default stack, then the documented ports', async () => {
    const ports = await choosePorts({ mode: 'fixed', host: '127.0.0.1', gatewayPort: 3000 });
    expect(ports).toEqual(FIXED_PORTS);
  });
});

describe('choosePorts with free ports', () => {
  it('given auto, then every process gets its own port', async () => {
    const ports = await choosePorts({ mode: 'auto', host: '127.0.0.1', gatewayPort: 0 });
    const all = Object.values(ports);
    expect(all).toHaveLength(Object.keys(FIXED_PORTS).length);
    expect(new Set(all).size).toBe(all.length);
  });
});

describe('the ports an extension picks', () => {
  it('given the stack’s ports, then each free port it picks is none of them and none picked before', async () => {
    const ports = await choosePorts({ mode: 'auto', host: '127.0.0.1', gatewayPort: 0 });
    const context = extensionPortsContext({ mode: 'auto', host: '127.0.0.1', ports });
    const picked = [await context.pick(), await context.pick()];
    expect(new Set([...portNumbers(ports), ...picked]).size).toBe(portNumbers(ports).length + 2);
  });

  it('given ports an extension added by name, then portNumbers counts them with the replicas', () => {
    const ports = { ...FIXED_PORTS, replicas: { 'payment-2': 3103 }, extra: 3099 };
    expect(portNumbers(ports)).toEqual([...Object.values(FIXED_PORTS), 3099, 3103]);
  });
});
