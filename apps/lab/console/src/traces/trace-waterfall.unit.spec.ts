import { describe, expect, it } from 'vitest';
import { DELIVERY_ATTRIBUTES } from './span-attributes.js';
import { span, spanId } from './testing/otlp.fixtures.js';
import { assembleWaterfall } from './trace-waterfall.js';

/** Each row as `<indent><name>`: the shape a reader sees. */
const outline = (rows: readonly { depth: number; name: string }[]) =>
  rows.map((row) => `${'  '.repeat(row.depth)}${row.name}`);

describe('assembleWaterfall', () => {
  it('given a request, its append and a consumer attempt, when assembled, then each hangs under its parent with offsets from the trace start', () => {
    // Given the POST, the append under it, and the inventory consumer under the append
    const post = span('1', { name: 'POST /orders', kind: 'server', startMs: 0, endMs: 40 });
    const append = span('2', {
      name: 'append order',
      kind: 'producer',
      parentSpanId: spanId('1'),
      startMs: 10,
      endMs: 20,
    });
    const consume = span('3', {
      name: 'process OrderPlaced',
      kind: 'consumer',
      parentSpanId: spanId('2'),
      startMs: 50,
      endMs: 80,
      service: 'inventory',
      attributes: {
        [DELIVERY_ATTRIBUTES.consumerGroup]: 'inventory-reservation-v1',
        [DELIVERY_ATTRIBUTES.retryCount]: 1,
        [DELIVERY_ATTRIBUTES.outcome]: 'applied',
      },
    });

    // When the waterfall is assembled
    const waterfall = assembleWaterfall([post, append, consume]);

    // Then the rows follow the tree, with offsets and durations in ms
    expect(outline(waterfall.rows)).toEqual([
      'POST /orders',
      '  append order',
      '    process OrderPlaced',
    ]);
    expect(waterfall.rows.map((row) => [row.startOffsetMs, row.durationMs])).toEqual([
      [0, 40],
      [10, 10],
      [50, 30],
    ]);
    expect(waterfall).toMatchObject({
      startedAt: '2026-12-01T10:00:00.000Z',
      durationMs: 80,
      services: ['order', 'inventory'],
    });
    // And the consumer span says what became of its attempt
    expect(waterfall.rows[2]).toMatchObject({
      service: 'inventory',
      serviceInstance: 'inventory-1',
      kind: 'consumer',
      delivery: {
        consumerGroup: 'inventory-reservation-v1',
        retryCount: 1,
        outcome: 'applied',
        detectedBy: null,
      },
    });
    expect(waterfall.rows[0]?.delivery).toBeNull();
  });

  it('given spans arriving out of order, when assembled, then the rows are the same as in order, children by start time', () => {
    // Given a root with two children and a grandchild, the children arriving first and late one first
    const spans = [
      span('4', { name: 'grandchild', parentSpanId: spanId('3'), startMs: 35 }),
      span('3', { name: 'later child', parentSpanId: spanId('1'), startMs: 30 }),
      span('2', { name: 'earlier child', parentSpanId: spanId('1'), startMs: 5 }),
      span('1', { name: 'root', startMs: 0, endMs: 60 }),
    ];

    // When assembled in that order and in the reverse one
    const outOfOrder = assembleWaterfall(spans);
    const inOrder = assembleWaterfall([...spans].reverse());

    // Then both give the tree with children by start time
    expect(outline(outOfOrder.rows)).toEqual([
      'root',
      '  earlier child',
      '  later child',
      '    grandchild',
    ]);
    expect(outOfOrder).toEqual(inOrder);
  });

  it('given an attempt killed mid-delivery (its span never exported) whose pg spans were, when assembled, then they hang under a placeholder for it, next to the retry that ended', () => {
    // Given the append, the retried attempt that applied, and the claim of the killed attempt whose span is missing
    const append = span('1', { name: 'append order', kind: 'producer', startMs: 0, endMs: 5 });
    const claimOfKilled = span('a', {
      name: 'INSERT processed_message',
      kind: 'client',
      parentSpanId: spanId('dead'),
      startMs: 12,
      endMs: 14,
      service: 'payment',
    });
    const retry = span('3', {
      name: 'process OrderPaymentRequested',
      kind: 'consumer',
      parentSpanId: spanId('1'),
      startMs: 200,
      endMs: 230,
      service: 'payment',
      attributes: { [DELIVERY_ATTRIBUTES.retryCount]: 1, [DELIVERY_ATTRIBUTES.outcome]: 'applied' },
    });

    // When assembled
    const waterfall = assembleWaterfall([claimOfKilled, retry, append]);

    // Then the claim is kept, under a placeholder that starts with it and never ends
    expect(outline(waterfall.rows)).toEqual([
      'append order',
      '  process OrderPaymentRequested',
      'span that never arrived',
      '  INSERT processed_message',
    ]);
    expect(waterfall.rows[2]).toMatchObject({
      spanId: spanId('dead'),
      missing: true,
      startOffsetMs: 12,
      durationMs: null,
      service: null,
    });
    expect(waterfall.rows[3]).toMatchObject({ missing: false, service: 'payment', depth: 1 });
  });

  it('given spans whose parents point at each other, when assembled, then every span is still shown once', () => {
    const waterfall = assembleWaterfall([
      span('1', { name: 'a', parentSpanId: spanId('2') }),
      span('2', { name: 'b', parentSpanId: spanId('1'), startMs: 1 }),
    ]);

    expect(waterfall.rows.map((row) => row.name).sort()).toEqual(['a', 'b']);
  });

  it('given span events, when assembled, then each has its offset from the trace start', () => {
    const consume = span('1', {
      kind: 'consumer',
      startMs: 0,
      endMs: 30,
      events: [
        {
          name: 'claim',
          timeUnixNano: span('x', { startMs: 7 }).startTimeUnixNano,
          attributes: { claimed: true },
        },
      ],
    });

    expect(assembleWaterfall([consume]).rows[0]?.events).toEqual([
      { name: 'claim', offsetMs: 7, attributes: { claimed: true } },
    ]);
  });

  it('given no spans, when assembled, then there are no rows and no start', () => {
    expect(assembleWaterfall([])).toEqual({
      startedAt: null,
      durationMs: 0,
      services: [],
      rows: [],
    });
  });
});
