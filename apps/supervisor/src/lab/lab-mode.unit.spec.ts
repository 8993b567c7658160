import { describe, expect, it } from 'vitest';
import { extensionPortsContext } from '../ports.js';
import { FIXED_PORTS } from '../stack.js';
import { CONSOLE_ENTRY } from './lab-stack.js';
import { labMode } from './lab-mode.js';

const token = 'lab-token-0123456789abcdef';
const labOn = labMode({ console: false, faults: { enabled: true, token } });
const consoleOnly = labMode({ console: true, faults: { enabled: false } });
const fixed = (ports = FIXED_PORTS) =>
  extensionPortsContext({ mode: 'fixed', host: '127.0.0.1', ports });

describe('the lab’s ports', () => {
  it('given lab mode, then inventory-2 listens on 3012 and lab-control on 3013', async () => {
    expect(await labOn.ports?.(fixed())).toEqual({ inventory2: 3012, labControl: 3013 });
  });

  it('given the console, then it listens on 3007', async () => {
    expect(await consoleOnly.ports?.(fixed())).toEqual({ console: 3007 });
  });

  it('given a replica called inventory-2, then it is the lab’s second inventory process, on its port', async () => {
    const ports = { ...FIXED_PORTS, replicas: { 'inventory-2': 3102 } };
    expect(await labOn.ports?.(fixed(ports))).toEqual({ inventory2: 3102, labControl: 3013 });
  });

  it('given free ports, then each of the lab’s is none of the stack’s', async () => {
    const both = labMode({ console: true, faults: { enabled: true, token } });
    const context = extensionPortsContext({ mode: 'auto', host: '127.0.0.1', ports: FIXED_PORTS });
    const chosen = Object.values((await both.ports?.(context)) ?? {});
    expect(chosen).toHaveLength(3);
    expect(new Set([...Object.values(FIXED_PORTS), ...chosen]).size).toBe(
      Object.keys(FIXED_PORTS).length + 3,
    );
  });
});

describe('the lab’s start', () => {
  it('given lab mode, then it warns with the token before anything starts', () => {
    expect(labOn.notice?.join('\n')).toContain(`FAULTS_TOKEN=${token}`);
    expect(consoleOnly.notice).toEqual([]);
  });

  it('given the console, then its composition root is bundled with the stack’s', () => {
    expect(consoleOnly.entries).toEqual([CONSOLE_ENTRY]);
    expect(labOn.entries).toEqual([]);
  });
});
