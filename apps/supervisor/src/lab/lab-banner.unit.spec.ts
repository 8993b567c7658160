import { describe, expect, it } from 'vitest';
import { readyBanner, type BannerInput } from '../banner.js';
import { FIXED_PORTS } from '../stack.js';
import { labBannerLines, labModeNotice } from './lab-banner.js';

const token = 'lab-token-0123456789abcdef';
const input: BannerInput = {
  host: '127.0.0.1',
  ports: FIXED_PORTS,
  startedInMs: 9_800,
  eventStore: 'embedded (PostgreSQL)',
  postgres: 'embedded',
  stateFile: '/repo/.stack/stack.json',
};
const host = '127.0.0.1';

describe('labModeNotice', () => {
  it('given lab mode, then it says fault injection is on and shows the token', () => {
    const lines = labModeNotice({ enabled: true, token });
    expect(lines[0]).toMatch(/^FAULT INJECTION IS ON/);
    expect(lines.join('\n')).toContain(`FAULTS_TOKEN=${token}`);
  });

  it('given a default stack, then it says nothing', () => {
    expect(labModeNotice({ enabled: false })).toEqual([]);
  });
});

describe('the ready banner with the lab', () => {
  it('given lab mode off and no console, then fault injection is off and there is no inventory-2', () => {
    const banner = readyBanner({
      ...input,
      extensionLines: labBannerLines({ host, ports: FIXED_PORTS, faults: { enabled: false } }),
    });
    expect(banner).toMatch(/fault injection: +off/);
    expect(banner).not.toContain('inventory-2');
    expect(banner).not.toContain('lab control');
    expect(banner).not.toContain('console:');
  });

  it('given the console, then it is shown at the entry point, not at its own port', () => {
    const ports = { ...FIXED_PORTS, console: 3007 };
    const banner = readyBanner({
      ...input,
      ports,
      extensionLines: labBannerLines({ host, ports, faults: { enabled: false } }),
    });
    expect(banner).toMatch(/console: +http:\/\/127\.0\.0\.1:3000\/\n/);
    expect(banner).not.toContain(':3007');
  });

  it('given lab mode, then it lists inventory-2, the lab-control server and the token', () => {
    const ports = { ...FIXED_PORTS, inventory2: 3012, labControl: 3013 };
    const banner = readyBanner({
      ...input,
      ports,
      extensionLines: labBannerLines({ host, ports, faults: { enabled: true, token } }),
    });
    expect(banner).toMatch(/inventory-2: +http:\/\/127\.0\.0\.1:3012/);
    expect(banner).toContain(`ON (FAULTS_TOKEN=${token})`);
    expect(banner).toMatch(/lab control: +http:\/\/127\.0\.0\.1:3013 /);
  });
});
