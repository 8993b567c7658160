// Spans as an exporter sends them (OTLP/HTTP JSON) and as the console keeps
// them, for the receiver's and the waterfall's tests and for the browser test
// that drives the trace view before the stack makes spans of its own.
import type { ReceivedSpan } from '../otlp-json.js';

export const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
/** 2026-12-01T10:00:00.000Z in nanoseconds. */
export const T0 = 1_796_119_200_000_000_000n;
const NANOS_PER_MS = 1_000_000n;

/** A kept span: `id` is its span id's last characters, times in ms after T0. */
export function span(
  id: string,
  input: Partial<Omit<ReceivedSpan, 'startTimeUnixNano' | 'endTimeUnixNano'>> & {
    startMs?: number;
    endMs?: number;
    service?: string;
  } = {},
): ReceivedSpan {
  const { startMs = 0, endMs = (input.startMs ?? 0) + 10, service = 'order', ...rest } = input;
  return {
    traceId: TRACE_ID,
    spanId: spanId(id),
    parentSpanId: null,
    name: `span ${id}`,
    kind: 'internal',
    startTimeUnixNano: T0 + BigInt(startMs) * NANOS_PER_MS,
    endTimeUnixNano: T0 + BigInt(endMs) * NANOS_PER_MS,
    status: { code: 'unset', message: null },
    attributes: {},
    events: [],
    links: [],
    resource: { 'service.name': service, 'service.instance.id': `${service}-1` },
    ...rest,
  };
}

/** A 16-hex-digit span id ending in `id`. */
export function spanId(id: string): string {
  return id.padStart(16, '0');
}

type OtlpValue = { stringValue: string } | { intValue: string } | { boolValue: boolean };

function otlpAttributes(attributes: Readonly<Record<string, string | number | boolean>>) {
  return Object.entries(attributes).map(([key, value]) => ({
    key,
    value: ((): OtlpValue => {
      if (typeof value === 'number') return { intValue: String(value) };
      if (typeof value === 'boolean') return { boolValue: value };
      return { stringValue: value };
    })(),
  }));
}

const KIND_NUMBERS = {
  unspecified: 0,
  internal: 1,
  server: 2,
  client: 3,
  producer: 4,
  consumer: 5,
} as const;
const STATUS_NUMBERS = { unset: 0, ok: 1, error: 2 } as const;

/** The JSON body an OTLP/HTTP exporter would POST for these spans: one resourceSpans per service instance. */
export function exportRequest(spans: readonly ReceivedSpan[]): unknown {
  const byResource = new Map<string, ReceivedSpan[]>();
  for (const kept of spans) {
    const key = JSON.stringify(kept.resource);
    byResource.set(key, [...(byResource.get(key) ?? []), kept]);
  }
  return {
    resourceSpans: [...byResource.values()].map((group) => ({
      resource: { attributes: otlpAttributes(group[0]?.resource ?? {}) },
      scopeSpans: [
        {
          scope: { name: 'effectively-once-test' },
          spans: group.map((kept) => ({
            traceId: kept.traceId,
            spanId: kept.spanId,
            ...(kept.parentSpanId === null ? {} : { parentSpanId: kept.parentSpanId }),
            name: kept.name,
            kind: KIND_NUMBERS[kept.kind],
            startTimeUnixNano: kept.startTimeUnixNano.toString(),
            endTimeUnixNano: kept.endTimeUnixNano.toString(),
            attributes: otlpAttributes(kept.attributes),
            events: kept.events.map((event) => ({
              name: event.name,
              timeUnixNano: event.timeUnixNano.toString(),
              attributes: otlpAttributes(event.attributes),
            })),
            status: {
              code: STATUS_NUMBERS[kept.status.code],
              ...(kept.status.message === null ? {} : { message: kept.status.message }),
            },
          })),
        },
      ],
    })),
  };
}
