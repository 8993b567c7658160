import { describe, expect, it } from 'vitest';
import { consumerNames, ScaffoldError, serviceNames } from './names.js';

describe('consumer names', () => {
  it('given a plain name, then every spelling, and the consumer name ends in -v1', () => {
    expect(consumerNames('loyalty-points')).toEqual({
      kebab: 'loyalty-points',
      snake: 'loyalty_points',
      camel: 'loyaltyPoints',
      pascal: 'LoyaltyPoints',
      consumer: 'loyalty-points-v1',
    });
  });

  it('given a name with a version, then it keeps that version', () => {
    expect(consumerNames('loyalty-points-v2')).toMatchObject({
      kebab: 'loyalty-points',
      consumer: 'loyalty-points-v2',
    });
  });

  it('given a name with two versions, then it is refused: its files and table would keep one', () => {
    expect(() => consumerNames('foo-v1-v2')).toThrow(ScaffoldError);
    expect(() => consumerNames('foo-v1-v2')).toThrow(
      /"foo-v1-v2" carries two versions; give the name without one \("foo", the scaffolder adds -v1\)/,
    );
  });

  it.each(['LoyaltyPoints', 'loyalty_points', 'loyalty-', '-points', '2fa', 'a'.repeat(41), ''])(
    'given %j, then it is refused with what to type instead',
    (typed) => {
      expect(() => consumerNames(typed)).toThrow(ScaffoldError);
      expect(() => consumerNames(typed)).toThrow(/lower-case words joined by "-"/);
    },
  );
});

describe('service names', () => {
  it('given a plain name, then its spellings', () => {
    expect(serviceNames('gift-cards')).toEqual({
      kebab: 'gift-cards',
      snake: 'gift_cards',
      camel: 'giftCards',
      pascal: 'GiftCards',
    });
  });

  it('given a name with a version, then it is refused: versions belong to consumers', () => {
    expect(() => serviceNames('shipping-v1')).toThrow(/only consumer names carry one/);
  });
});
