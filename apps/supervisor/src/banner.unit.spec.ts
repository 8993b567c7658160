import { describe, expect, it } from 'vitest';
import { labModeNotice, phaseSummary, readyBanner, type BannerInput } from './banner.js';
import { FIXED_PORTS } from './stack.js';

const token = 'lab-token-0123456789abcdef';
const input: BannerInput = {
  host: '127.0.0.1',
  ports: FIXED_PORTS,
  startedInMs: 9_800,
  eventStore: 'embedded (PostgreSQL)',
  postgres: 'embedded',
  faults: { enabled: false },
  stateFile: '/repo/.stack/stack.json',
};

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

describe('readyBanner', () => {
  it('given a default stack, then fault injection is off and there is no inventory-2', () => {
    const banner = readyBanner(input);
    expect(banner).toMatch(/fault injection: +off/);
    expect(banner).toMatch(/state file: +\/repo\/\.stack\/stack\.json/);
    expect(banner).not.toContain('inventory-2');
    expect(banner).not.toContain('lab control');
    expect(banner).not.toContain('console:');
  });

  it('given services added with pnpm new service, then each is listed with its port after the saga', () => {
    const banner = readyBanner({
      ...input,
      added: [
        { name: 'shipping', port: 3008 },
        { name: 'a-service-with-a-long-name', port: 3009 },
      ],
    });
    expect(banner).toContain(
      '  notification:        http://127.0.0.1:3004\n  shipping:            http://127.0.0.1:3008  (added with pnpm new service)\n',
    );
    expect(banner).toContain('  a-service-with-a-long-name: http://127.0.0.1:3009 ');
  });

  it('given the console, then it is shown at the entry point, not at its own port', () => {
    const banner = readyBanner({ ...input, ports: { ...FIXED_PORTS, console: 3007 } });
    expect(banner).toMatch(/console: +http:\/\/127\.0\.0\.1:3000\/\n/);
    expect(banner).not.toContain(':3007');
  });

  it('given lab mode, then it lists inventory-2, the lab-control server and the token', () => {
    const banner = readyBanner({
      ...input,
      ports: { ...FIXED_PORTS, inventory2: 3012, labControl: 3013 },
      faults: { enabled: true, token },
    });
    expect(banner).toMatch(/inventory-2: +http:\/\/127\.0\.0\.1:3012/);
    expect(banner).toContain(`ON (FAULTS_TOKEN=${token})`);
    expect(banner).toMatch(/lab control: +http:\/\/127\.0\.0\.1:3013 /);
  });
});

describe('phaseSummary', () => {
  it('given the measured phases, then one line in seconds, in the order given', () => {
    expect(phaseSummary({ postgres: 2_140, bundles: 820, gateway: 35 })).toBe(
      'start phases: postgres 2.14 s, bundles 0.82 s, gateway 0.04 s',
    );
  });
});
