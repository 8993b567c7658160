import { describe, expect, it } from 'vitest';
import { isChosenToWake } from './wake-choice.js';

describe('the wake choice', () => {
  const members = [4711, 815, 2024];
  const chosenFor = (streams: readonly string[]) =>
    members.filter((self) => isChosenToWake({ streams, members, self }));

  it('gives each stream to exactly one member, whatever order the list comes in', () => {
    for (let index = 0; index < 50; index++) {
      const stream = `order-${String(index)}`;
      expect(chosenFor([stream])).toHaveLength(1);
      expect(
        members.filter((self) =>
          isChosenToWake({ streams: [stream], members: [...members].reverse(), self }),
        ),
      ).toEqual(chosenFor([stream]));
    }
  });

  it('spreads streams over every member', () => {
    const streams = Array.from({ length: 60 }, (_, index) => `payment-${String(index)}`);
    const chosen = new Set(streams.flatMap((stream) => chosenFor([stream])));
    expect(chosen).toEqual(new Set(members));
  });

  it('wakes a member for an announcement of several streams when one of them is its', () => {
    const streams = Array.from({ length: 60 }, (_, index) => `payment-${String(index)}`);
    expect(chosenFor(streams)).toEqual(members);
  });

  it('wakes a consumer that is not listed yet, and every consumer for an announcement without streams', () => {
    expect(isChosenToWake({ streams: ['order-1'], members: [1, 2], self: 3 })).toBe(true);
    expect(isChosenToWake({ streams: ['order-1'], members: [], self: 3 })).toBe(true);
    expect(chosenFor([]).length).toBe(members.length);
    expect(members.every((self) => isChosenToWake({ streams: undefined, members, self }))).toBe(
      true,
    );
  });
});
