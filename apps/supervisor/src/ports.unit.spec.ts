import { describe, expect, it } from 'vitest';
import { choosePorts } from './ports.js';
import { FIXED_PORTS } from './stack.js';

describe('choosePorts with fixed ports', () => {
  it('given a default stack without the console, then the documented ports and no inventory-2', async () => {
    const ports = await choosePorts({
      mode: 'fixed',
      host: '127.0.0.1',
      gatewayPort: 3000,
      lab: false,
      console: false,
    });
    expect(ports).toEqual(FIXED_PORTS);
    expect('inventory2' in ports).toBe(false);
    expect('console' in ports).toBe(false);
  });

  // lab:begin
  it('given lab mode, then inventory-2 listens on 3012 and lab-control on 3013', async () => {
    const ports = await choosePorts({
      mode: 'fixed',
      host: '127.0.0.1',
      gatewayPort: 3000,
      lab: true,
      console: false,
    });
    expect(ports).toEqual({ ...FIXED_PORTS, inventory2: 3012, labControl: 3013 });
  });

  it('given the console, then it listens on 3007', async () => {
    const ports = await choosePorts({
      mode: 'fixed',
      host: '127.0.0.1',
      gatewayPort: 3000,
      lab: false,
      console: true,
    });
    expect(ports).toEqual({ ...FIXED_PORTS, console: 3007 });
  });
  // lab:end
});

describe('choosePorts with free ports', () => {
  // lab:begin
  it('given the console and lab mode, then every process gets its own port', async () => {
    const ports = await choosePorts({
      mode: 'auto',
      host: '127.0.0.1',
      gatewayPort: 0,
      lab: true,
      console: true,
    });
    const all = Object.values(ports);
    expect(all).toHaveLength(Object.keys(FIXED_PORTS).length + 3);
    expect(new Set(all).size).toBe(all.length);
    expect(ports.console).toBeGreaterThan(0);
  });
  // lab:end

  it('given no console, then the console has no port', async () => {
    const ports = await choosePorts({
      mode: 'auto',
      host: '127.0.0.1',
      gatewayPort: 0,
      lab: false,
      console: false,
    });
    expect('console' in ports).toBe(false);
  });
});
