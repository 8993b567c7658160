import { describe, expect, it } from 'vitest';
import { choosePorts } from './ports.js';
import { FIXED_PORTS } from './stack.js';

describe('choosePorts with fixed ports', () => {
  it('given a default stack, then the documented ports and no inventory-2', async () => {
    const ports = await choosePorts({
      mode: 'fixed',
      host: '127.0.0.1',
      gatewayPort: 3000,
      lab: false,
    });
    expect(ports).toEqual(FIXED_PORTS);
    expect('inventory2' in ports).toBe(false);
  });

  it('given lab mode, then inventory-2 listens on 3012', async () => {
    const ports = await choosePorts({
      mode: 'fixed',
      host: '127.0.0.1',
      gatewayPort: 3000,
      lab: true,
    });
    expect(ports).toEqual({ ...FIXED_PORTS, inventory2: 3012 });
  });
});
