import { describe, expect, it } from 'vitest';
import { LONG_SOAK, SHORT_SOAK, parseSoakArgs } from './soak-args.js';

const flags = { short: false, 'no-docs': false, help: false };

describe('parseSoakArgs', () => {
  it('given no arguments, when parsed, then it is the long soak with a random seed, writing the docs', () => {
    const parsed = parseSoakArgs(flags);
    expect(parsed).toMatchObject({
      kind: 'run',
      options: {
        orders: LONG_SOAK.orders,
        ratePerSecond: LONG_SOAK.ratePerSecond,
        profile: 'long',
        writeDocs: true,
      },
    });
  });

  it('given --short and a seed, when parsed, then it is the short soak replaying that seed', () => {
    expect(parseSoakArgs({ ...flags, short: true, seed: '42', 'no-docs': true })).toMatchObject({
      kind: 'run',
      options: { seed: 42, orders: SHORT_SOAK.orders, profile: 'short', writeDocs: false },
    });
  });

  it('given a bad number, when parsed, then it refuses and names the option', () => {
    const parsed = parseSoakArgs({ ...flags, orders: 'many' });
    expect(parsed.kind).toBe('error');
    expect(parsed.kind === 'error' ? parsed.message : '').toMatch(/^--orders:/);
  });

  it('given --help, when parsed, then it asks for the usage', () => {
    expect(parseSoakArgs({ ...flags, help: true })).toEqual({ kind: 'help' });
  });
});
