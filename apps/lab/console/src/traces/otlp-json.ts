// An OTLP/HTTP JSON `ExportTraceServiceRequest` read into plain spans. The
// JSON mapping (opentelemetry-proto docs/specification.md, "JSON Protobuf
// Encoding"): trace and span ids are hex strings (case-insensitive), enums are
// integers, 64-bit integers are decimal strings or numbers, and unknown fields
// are ignored. The envelope must parse or the whole request is bad data (400);
// each span is parsed on its own, so one bad span is a rejected span in a
// partial success, not a lost batch.
//
// Every process exports here, about a hundred spans per order: the schemas
// only check, and the conversions (lower-case ids, BigInt times, attribute
// maps) are plain code in toReceivedSpan. With a zod transform or refine per
// id, time and attribute list, and a recursive schema for attribute values,
// reading a span cost more than twice the CPU (docs/observability.md, "What
// tracing costs").
import { z } from 'zod';

/** A span as the console keeps it; times in nanoseconds since the epoch. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  kind: SpanKind;
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  status: { code: SpanStatusCode; message: string | null };
  attributes: Attributes;
  events: { name: string; timeUnixNano: bigint; attributes: Attributes }[];
  links: { traceId: string; spanId: string }[];
  /** `service.name`, `service.instance.id` and the rest of the resource. */
  resource: Attributes;
}

export type AttributeValue = string | number | boolean;
export type Attributes = Readonly<Record<string, AttributeValue>>;

/** SpanKind by its OTLP number: 0 is unspecified. */
const SPAN_KINDS = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'] as const;
export type SpanKind = (typeof SPAN_KINDS)[number];
const STATUS_CODES = ['unset', 'ok', 'error'] as const;
export type SpanStatusCode = (typeof STATUS_CODES)[number];

/** Lower-cased by toReceivedSpan. */
const hexId = (bytes: number) =>
  z
    .string()
    .regex(
      new RegExp(`^[0-9a-fA-F]{${String(bytes * 2)}}$`),
      `must be ${String(bytes)} bytes in hex`,
    )
    .regex(/[^0]/, 'must not be all zeros');
const TraceId = hexId(16);
const SpanId = hexId(8);

/** A fixed64 of the JSON mapping: a decimal string or a number; made a BigInt by toReceivedSpan. */
const UnixNano = z.union([
  z.string().regex(/^\d{1,20}$/, 'must be a decimal integer'),
  z.number().int().min(0),
]);

/**
 * An attribute's value. An array's or a map's members are read by the same
 * schema when the value is made plain, not by a recursive schema: zod guards
 * every object a recursive schema parses against reference cycles, which
 * doubled the receiver's cost for lists that are flat in every span the
 * stack exports.
 */
const AnyValue = z.object({
  stringValue: z.string().optional(),
  boolValue: z.boolean().optional(),
  intValue: z.union([z.string().regex(/^-?\d+$/), z.number().int()]).optional(),
  doubleValue: z.number().optional(),
  arrayValue: z.object({ values: z.array(z.unknown()).optional() }).optional(),
  kvlistValue: z
    .object({ values: z.array(z.object({ key: z.string(), value: z.unknown() })).optional() })
    .optional(),
  // Base64 in the JSON mapping; some serializers write a byte array's object form instead.
  bytesValue: z.unknown().optional(),
});
type AnyValue = z.output<typeof AnyValue>;

/** A member of an array or a map; one that is not an AnyValue shows as its JSON text. */
function plainMember(member: unknown): AttributeValue | null {
  if (member === undefined) return null;
  const value = AnyValue.safeParse(member);
  return value.success ? plainValue(value.data) : JSON.stringify(member);
}

/**
 * Arrays and maps are kept as their JSON text, and an int64 beyond 2^53 loses
 * its last digits: the console only shows attributes, it never computes with them.
 */
function plainValue(value: AnyValue): AttributeValue {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.bytesValue !== undefined) {
    return typeof value.bytesValue === 'string' ? value.bytesValue : '(bytes)';
  }
  if (value.arrayValue !== undefined) {
    return JSON.stringify((value.arrayValue.values ?? []).map(plainMember));
  }
  if (value.kvlistValue !== undefined) {
    const entries = (value.kvlistValue.values ?? []).map(({ key, value: inner }) => [
      key,
      plainMember(inner),
    ]);
    return JSON.stringify(Object.fromEntries(entries));
  }
  return '';
}

const KeyValues = z.array(z.object({ key: z.string(), value: AnyValue.optional() })).default([]);

/** Object.fromEntries defines every key as an own property, "__proto__" too, where `=` would not. */
function attributesOf(list: z.output<typeof KeyValues>): Attributes {
  return Object.fromEntries(
    list.flatMap(({ key, value }) => (value === undefined ? [] : [[key, plainValue(value)]])),
  );
}

const OtlpSpan = z.object({
  traceId: TraceId,
  spanId: SpanId,
  // The JSON mapping leaves an empty bytes field out, but exporters also send "".
  parentSpanId: z.union([z.literal(''), SpanId]).optional(),
  name: z.string(),
  kind: z.number().int().min(0).max(5).default(0),
  startTimeUnixNano: UnixNano,
  endTimeUnixNano: UnixNano,
  attributes: KeyValues,
  events: z
    .array(z.object({ timeUnixNano: UnixNano, name: z.string(), attributes: KeyValues }))
    .default([]),
  links: z.array(z.object({ traceId: TraceId, spanId: SpanId })).default([]),
  status: z
    .object({ code: z.number().int().min(0).max(2).default(0), message: z.string().optional() })
    .default({ code: 0 }),
});

/** The envelope: the spans themselves are parsed one by one. */
export const ExportTraceServiceRequest = z.object({
  resourceSpans: z
    .array(
      z.object({
        resource: z.object({ attributes: KeyValues }).optional(),
        scopeSpans: z.array(z.object({ spans: z.array(z.unknown()).default([]) })).default([]),
      }),
    )
    .default([]),
});

export interface ReadExport {
  spans: ReceivedSpan[];
  rejectedSpans: number;
  /** Why the first rejected span was rejected, for the partial success's message. */
  firstRejection: string | null;
}

function issueText(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.join('.') || '(span)'} ${issue.message}`)
    .join('; ');
}

function toReceivedSpan(span: z.output<typeof OtlpSpan>, resource: Attributes): ReceivedSpan {
  return {
    traceId: span.traceId.toLowerCase(),
    spanId: span.spanId.toLowerCase(),
    parentSpanId:
      span.parentSpanId === undefined || span.parentSpanId === ''
        ? null
        : span.parentSpanId.toLowerCase(),
    name: span.name,
    kind: SPAN_KINDS[span.kind] ?? 'unspecified',
    startTimeUnixNano: BigInt(span.startTimeUnixNano),
    endTimeUnixNano: BigInt(span.endTimeUnixNano),
    status: {
      code: STATUS_CODES[span.status.code] ?? 'unset',
      message: span.status.message || null,
    },
    attributes: attributesOf(span.attributes),
    events: span.events.map((event) => ({
      name: event.name,
      timeUnixNano: BigInt(event.timeUnixNano),
      attributes: attributesOf(event.attributes),
    })),
    links: span.links.map((link) => ({
      traceId: link.traceId.toLowerCase(),
      spanId: link.spanId.toLowerCase(),
    })),
    resource,
  };
}

/**
 * The spans of a parsed envelope, each checked on its own.
 *
 * @example
 * const request = ExportTraceServiceRequest.safeParse(body);
 * if (request.success) readExport(request.data); // { spans, rejectedSpans: 0, firstRejection: null }
 */
export function readExport(request: z.output<typeof ExportTraceServiceRequest>): ReadExport {
  const result: ReadExport = { spans: [], rejectedSpans: 0, firstRejection: null };
  for (const { resource, scopeSpans } of request.resourceSpans) {
    const resourceAttributes = attributesOf(resource?.attributes ?? []);
    for (const { spans } of scopeSpans) {
      for (const raw of spans) {
        const span = OtlpSpan.safeParse(raw);
        if (span.success) {
          result.spans.push(toReceivedSpan(span.data, resourceAttributes));
        } else {
          result.rejectedSpans += 1;
          result.firstRejection ??= issueText(span.error);
        }
      }
    }
  }
  return result;
}
