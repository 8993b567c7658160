import { describe, expect, it } from 'vitest';
import { ExportTraceServiceRequest, readExport } from './otlp-json.js';
import { exportRequest, span, spanId, TRACE_ID } from './testing/otlp.fixtures.js';

function read(body: unknown) {
  return readExport(ExportTraceServiceRequest.parse(body));
}

describe('readExport', () => {
  it('given an exporter’s JSON, when read, then each span keeps its ids, kind, times, attributes, events and resource', () => {
    // Given a consumer span with an event, as an exporter sends it
    const sent = span('1', {
      name: 'process OrderPlaced',
      kind: 'consumer',
      parentSpanId: spanId('2'),
      service: 'inventory',
      attributes: { 'messaging.consumer.group.name': 'inventory-reservation-v1', retry: 2 },
      status: { code: 'error', message: 'deadlock' },
      events: [{ name: 'claim', timeUnixNano: 5n, attributes: { claimed: true } }],
    });

    // When the body is read
    const { spans, rejectedSpans } = read(exportRequest([sent]));

    // Then the span comes back as it was sent
    expect(rejectedSpans).toBe(0);
    expect(spans).toEqual([sent]);
  });

  it('given the JSON mapping’s variants, when read, then upper-case hex, numeric times, an empty parent, a missing kind and unknown fields are all accepted', () => {
    const { spans } = read({
      resourceSpans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'gateway' } }] },
          schemaUrl: 'https://opentelemetry.io/schemas/1.26.0',
          scopeSpans: [
            {
              spans: [
                {
                  traceId: TRACE_ID.toUpperCase(),
                  spanId: 'ABCDEF0123456789',
                  parentSpanId: '',
                  name: 'GET /',
                  startTimeUnixNano: 1000,
                  endTimeUnixNano: '2000',
                  flags: 257,
                  attributes: [
                    { key: 'list', value: { arrayValue: { values: [{ intValue: 1 }] } } },
                    { key: 'ratio', value: { doubleValue: 0.5 } },
                    { key: 'raw', value: { bytesValue: { '0': 1 } } },
                  ],
                },
              ],
            },
          ],
        },
      ],
    });

    expect(spans[0]).toMatchObject({
      traceId: TRACE_ID,
      spanId: 'abcdef0123456789',
      parentSpanId: null,
      kind: 'unspecified',
      startTimeUnixNano: 1000n,
      endTimeUnixNano: 2000n,
      attributes: { list: '[1]', ratio: 0.5, raw: '(bytes)' },
      resource: { 'service.name': 'gateway' },
    });
  });

  it('given nested lists and maps, when read, then each member is read as a value, and one that is not shows as its JSON text', () => {
    const nested = {
      kvlistValue: {
        values: [
          {
            key: 'ids',
            value: { arrayValue: { values: [{ stringValue: 'a' }, { intValue: '2' }] } },
          },
          { key: 'odd', value: { intValue: 'not a number' } },
        ],
      },
    };
    const body = {
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  traceId: TRACE_ID,
                  spanId: spanId('1'),
                  name: 'GET /',
                  startTimeUnixNano: '1000',
                  endTimeUnixNano: '2000',
                  attributes: [{ key: 'nested', value: nested }],
                },
              ],
            },
          ],
        },
      ],
    };

    const { spans, rejectedSpans } = read(body);

    expect(rejectedSpans).toBe(0);
    expect(spans[0]?.attributes).toEqual({
      nested: '{"ids":"[\\"a\\",2]","odd":"{\\"intValue\\":\\"not a number\\"}"}',
    });
  });

  it('given an attribute named "__proto__", when read, then it is kept as an attribute like any other', () => {
    const sent = span('1', { name: 'GET /', attributes: { ['__proto__']: 'odd', kept: 1 } });

    const { spans } = read(exportRequest([sent]));

    expect(Object.keys(spans[0]?.attributes ?? {})).toEqual(['__proto__', 'kept']);
  });

  it('given a batch with a bad span among good ones, when read, then only the bad one is rejected, with the reason', () => {
    // Given three spans, the second with a base64 trace id (protobuf's JSON mapping, not OTLP's) and an all-zero span id
    const body = exportRequest([span('1'), span('2'), span('3')]) as {
      resourceSpans: { scopeSpans: { spans: Record<string, unknown>[] }[] }[];
    };
    const bad = body.resourceSpans[0]?.scopeSpans[0]?.spans[1];
    if (bad === undefined) throw new Error('fixture changed');
    bad['traceId'] = 'S/kvNXezTaajzpKdDg5HNg==';
    bad['spanId'] = '0000000000000000';

    // When read
    const read1 = read(body);

    // Then two spans are kept and one refused, saying why
    expect(read1.spans.map((kept) => kept.spanId)).toEqual([spanId('1'), spanId('3')]);
    expect(read1.rejectedSpans).toBe(1);
    expect(read1.firstRejection).toMatch(/traceId must be 16 bytes in hex/);
    expect(read1.firstRejection).toMatch(/spanId must not be all zeros/);
  });

  it('given an enum as a name (forbidden in OTLP JSON), when read, then the span is rejected', () => {
    const body = {
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  traceId: TRACE_ID,
                  spanId: spanId('1'),
                  name: 'x',
                  kind: 'SPAN_KIND_SERVER',
                  startTimeUnixNano: '1',
                  endTimeUnixNano: '2',
                },
              ],
            },
          ],
        },
      ],
    };

    expect(read(body)).toMatchObject({ spans: [], rejectedSpans: 1 });
  });

  it('given no data at all, when parsed, then it is an empty, valid request', () => {
    expect(read({})).toEqual({ spans: [], rejectedSpans: 0, firstRejection: null });
  });

  it('given an envelope of the wrong shape, when parsed, then it is refused as a whole', () => {
    expect(ExportTraceServiceRequest.safeParse({ resourceSpans: 'all of them' }).success).toBe(
      false,
    );
  });
});
