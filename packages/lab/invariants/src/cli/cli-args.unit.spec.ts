import { describe, expect, it } from 'vitest';
import { orderIdOf } from '../testing/facts.fixtures.js';
import { parseCliArgs, UsageError } from './cli-args.js';

describe('parseCliArgs', () => {
  it('given no arguments, when parsed, then every order is judged with the default settle time', () => {
    expect(parseCliArgs([])).toEqual({
      orderIds: undefined,
      skus: undefined,
      json: false,
      settleMs: undefined,
      timerGraceMs: undefined,
      help: false,
    });
  });

  it('given repeated orders and SKUs, --json, --settle-ms and --timer-grace-ms, when parsed, then all are kept', () => {
    const options = parseCliArgs([
      '--order',
      orderIdOf(1),
      '--order',
      orderIdOf(2),
      '--sku',
      'SKU-MUG',
      '--json',
      '--settle-ms',
      '5000',
      '--timer-grace-ms',
      '2000',
    ]);

    expect(options).toEqual({
      orderIds: [orderIdOf(1), orderIdOf(2)],
      skus: ['SKU-MUG'],
      json: true,
      settleMs: 5_000,
      timerGraceMs: 2_000,
      help: false,
    });
  });

  it('given an order id that is not a uuid, when parsed, then it is a usage error naming the option', () => {
    expect(() => parseCliArgs(['--order', '42'])).toThrow(UsageError);
    expect(() => parseCliArgs(['--order', '42'])).toThrow(/--order/);
  });

  it('given a negative timer grace, when parsed, then it is a usage error naming the option', () => {
    expect(() => parseCliArgs(['--timer-grace-ms', '-1'])).toThrow(/--timer-grace-ms/);
  });

  it('given an unknown option, when parsed, then it is a usage error', () => {
    expect(() => parseCliArgs(['--orders', orderIdOf(1)])).toThrow(UsageError);
  });
});
