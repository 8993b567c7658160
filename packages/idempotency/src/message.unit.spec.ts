import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { assertMessageRef, InvalidMessageError, type MessageRef } from './message.js';

describe('assertMessageRef', () => {
  it('given a uuid and a type, it is accepted', () => {
    expect(() => {
      assertMessageRef({ id: randomUUID(), type: 'OrderPlaced' });
    }).not.toThrow();
  });

  it('given an id of exactly 200 characters, it is accepted', () => {
    expect(() => {
      assertMessageRef({ id: 'e'.repeat(200), type: 'OrderPlaced' });
    }).not.toThrow();
  });

  it.each([
    ['an empty id', '', 'Message id must be a non-empty string'],
    ['a blank id', '   ', "the producer's stable event id"],
    ['an id of 201 characters', 'e'.repeat(201), 'is 201 characters long; at most 200 are allowed'],
    ['an id with trailing white space', 'evt-7 ', 'leading or trailing white space'],
  ])('given %s, it is refused with a message that says why', (_why, id, says) => {
    // When
    const assertion = () => {
      assertMessageRef({ id, type: 'OrderPlaced' });
    };

    // Then
    expect(assertion).toThrow(InvalidMessageError);
    expect(assertion).toThrow(says);
  });

  it('given an id that is not a string (untyped JSON), it is refused', () => {
    // Given
    const message = { id: 42, type: 'OrderPlaced' } as unknown as MessageRef;

    // Then
    expect(() => {
      assertMessageRef(message);
    }).toThrow('Message id must be a non-empty string');
  });

  it.each([
    ['an empty type', { id: 'evt-7', type: '' }],
    ['no type at all', { id: 'evt-7' } as unknown as MessageRef],
  ])('given %s, it is refused with an example of a type', (_why, message) => {
    expect(() => {
      assertMessageRef(message);
    }).toThrow('Message evt-7 has no type; expected e.g. "OrderPlaced".');
  });
});
