import { describe, expect, it } from 'vitest';
import { parseCommand } from './args.js';

describe('the command line', () => {
  it('reads a consumer with its event and what it emits', () => {
    expect(
      parseCommand([
        'consumer',
        'payment',
        'loyalty-points',
        '--on',
        'OrderConfirmed',
        '--emit',
        'LoyaltyPointsAwarded',
      ]),
    ).toEqual({
      kind: 'consumer',
      service: 'payment',
      name: 'loyalty-points',
      on: 'OrderConfirmed',
      emit: 'LoyaltyPointsAwarded',
      dryRun: false,
    });
  });

  it('reads a service, whose first consumer reacts to OrderConfirmed unless told otherwise', () => {
    expect(parseCommand(['service', 'shipping'])).toEqual({
      kind: 'service',
      name: 'shipping',
      on: 'OrderConfirmed',
      dryRun: false,
    });
    expect(
      parseCommand(['service', 'shipping', '--on', 'PaymentCaptured', '--consumer', 'parcels']),
    ).toMatchObject({ on: 'PaymentCaptured', consumer: 'parcels' });
  });

  it.each([
    [['consumer', 'payment', 'loyalty-points'], /needs --on/],
    [['consumer', 'payment'], /usage:/],
    [['service'], /usage:/],
    [['service', 'shipping', '--emit', 'X'], /--emit is for `new consumer`/],
    [['consumer', 'a', 'b', '--on', 'OrderPlaced', '--consumer', 'c'], /--consumer is for/],
    [['producer', 'x'], /usage:/],
    [['service', 'shipping', '--colour', 'red'], /Unknown option/],
  ])('refuses %j with the usage', (argv, message) => {
    expect(() => parseCommand(argv)).toThrow(message);
  });
});
