import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseExpectedRevision } from './expected-revision.js';
import { validateAppend } from './validate-append.js';

const event = (data: unknown, extra: object = {}) => ({
  id: randomUUID(),
  type: 'ThingHappened',
  data,
  ...extra,
});
const problem = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
};

describe('validateAppend', () => {
  it('given valid events, when validated, then each is serialized once with default metadata', () => {
    const [valid] = validateAppend('order-42', [event({ total: 3 })], 1024);
    expect(valid).toMatchObject({ dataJson: '{"total":3}', metadata: { schemaVersion: 1 } });
  });

  it.each([
    ['', 'INVALID_STREAM_NAME'],
    ['$all', 'INVALID_STREAM_NAME'],
    ['order 42', 'INVALID_STREAM_NAME'],
    ['x'.repeat(201), 'INVALID_STREAM_NAME'],
  ])('given stream name %j, then it is refused with %s', (name, code) => {
    expect(problem(() => validateAppend(name, [event({})], 1024))).toMatchObject({ code });
  });

  it.each([
    [{ total: Number.NaN }, 'data.total is NaN'],
    [{ items: [1, Infinity] }, 'data.items[1] is Infinity'],
    [{ at: new Date(0) }, 'data.at is a Date, not a plain object'],
    [{ n: 1n }, 'data.n is a bigint'],
    [{ missing: undefined }, 'data.missing is undefined'],
    [new Map(), 'data is a Map'],
  ])(
    'given data %o that JSON would change, then it is refused naming the path',
    (data, message) => {
      const error = problem(() => validateAppend('order-1', [event(data)], 1024));
      expect(error).toMatchObject({ code: 'INVALID_EVENT' });
      expect((error as Error).message).toContain(message);
    },
  );

  it('given a cycle, then it is refused rather than overflowing the stack', () => {
    const data: Record<string, unknown> = {};
    data['self'] = data;
    expect(
      (problem(() => validateAppend('order-1', [event(data)], 1024)) as Error).message,
    ).toContain('cycle');
  });

  it('given an event over the limit, then EVENT_TOO_LARGE says the size and the limit', () => {
    const error = problem(() =>
      validateAppend('order-1', [event({ blob: 'x'.repeat(2000) })], 1024),
    );
    expect(error).toMatchObject({ code: 'EVENT_TOO_LARGE' });
    expect((error as Error).message).toMatch(/is \d+ bytes of JSON, over the limit of 1024/);
  });

  it('given a bad id, a bad type, bad metadata or duplicate ids, then INVALID_EVENT', () => {
    const id = randomUUID();
    for (const events of [
      [{ id: 'evt-1', type: 'ThingHappened', data: {} }],
      [{ id, type: '1Bad', data: {} }],
      [event({}, { metadata: { traceparent: 'nope' } })],
      [
        { id, type: 'A', data: {} },
        { id, type: 'B', data: {} },
      ],
      [],
    ]) {
      expect(problem(() => validateAppend('order-1', events, 1024))).toMatchObject({
        code: 'INVALID_EVENT',
      });
    }
  });
});

describe('parseExpectedRevision', () => {
  it('accepts the four forms, numbers as exact revisions', () => {
    expect(['no_stream', 'any', 'stream_exists', 3, 4n].map(parseExpectedRevision)).toEqual([
      'no_stream',
      'any',
      'stream_exists',
      3n,
      4n,
    ]);
  });

  it.each([['no-stream'], [-1], [1.5], [null], [2n ** 63n], [Number.MAX_SAFE_INTEGER + 1]])(
    'refuses %o with INVALID_EXPECTED_REVISION',
    (value) => {
      expect(problem(() => parseExpectedRevision(value))).toMatchObject({
        code: 'INVALID_EXPECTED_REVISION',
      });
    },
  );
});
