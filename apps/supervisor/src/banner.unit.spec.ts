import { describe, expect, it } from 'vitest';
import { phaseSummary, readyBanner, type BannerInput } from './banner.js';
import { FIXED_PORTS } from './stack.js';

const input: BannerInput = {
  host: '127.0.0.1',
  ports: FIXED_PORTS,
  startedInMs: 9_800,
  eventStore: 'embedded (PostgreSQL)',
  postgres: 'embedded',
  stateFile: '/repo/.stack/stack.json',
};

describe('readyBanner', () => {
  it('given a default stack, then every process and the state file, and nothing else', () => {
    const banner = readyBanner(input);
    expect(banner).toMatch(/state file: +\/repo\/\.stack\/stack\.json/);
    expect(banner.split('\n').filter((line) => line.startsWith('  '))).toHaveLength(10);
  });

  it('given lines of an extension, then they come after the stack’s, before the state file', () => {
    const banner = readyBanner({ ...input, extensionLines: ['  extra:               on'] });
    expect(banner).toContain(
      '  PostgreSQL:          embedded\n  extra:               on\n  state file:',
    );
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
});

describe('phaseSummary', () => {
  it('given the measured phases, then one line in seconds, in the order given', () => {
    expect(phaseSummary({ postgres: 2_140, bundles: 820, gateway: 35 })).toBe(
      'start phases: postgres 2.14 s, bundles 0.82 s, gateway 0.04 s',
    );
  });
});
