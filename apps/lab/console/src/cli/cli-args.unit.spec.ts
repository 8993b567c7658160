import { describe, expect, it } from 'vitest';
import { parseLineageArgs, UsageError } from './cli-args.js';

const ORDER_ID = '0b7c6f64-3b7e-4c39-9d7e-1f0a2f6f3a10';

describe('parseLineageArgs', () => {
  it.each([
    [[ORDER_ID], { kind: 'lineage', orderId: ORDER_ID, json: false }],
    [[ORDER_ID, '--json'], { kind: 'lineage', orderId: ORDER_ID, json: true }],
    [['--stuck'], { kind: 'stuck', json: false }],
    [['-h'], { kind: 'help' }],
  ])('given %j, runs %j', (argv, command) => {
    expect(parseLineageArgs(argv)).toEqual(command);
  });

  it.each([[[]], [['not-a-uuid']], [[ORDER_ID, ORDER_ID]], [['--stuck', ORDER_ID]], [['--nope']]])(
    'refuses %j',
    (argv) => {
      expect(() => parseLineageArgs(argv)).toThrow(UsageError);
    },
  );
});
