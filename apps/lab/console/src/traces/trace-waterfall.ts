// One trace's spans as a waterfall: a row per span, depth-first under its
// parent, children by start time, each with its offset from the trace's start
// and its duration. Spans arrive in any order (each process exports its own
// batches), and some parents never arrive at all: a delivery attempt whose
// process was SIGKILLed never ends, so its span is never exported, while the
// pg spans it started may have been. Such children hang under a placeholder
// row for the missing parent instead of being lost or promoted to the top. Pure.
import type { TraceRow, TraceWaterfall } from '../api/console.api.js';
import type { Attributes, ReceivedSpan } from './otlp-json.js';
import { deliveryOf } from './span-attributes.js';

const NANOS_PER_MS = 1_000_000n;

/** Milliseconds with microsecond precision: enough for a bar, small in JSON. */
function msBetween(from: bigint, to: bigint): number {
  return Number(((to - from) * 1_000n) / NANOS_PER_MS) / 1_000;
}

const text = (attributes: Attributes, key: string): string | null => {
  const value = attributes[key];
  return value === undefined ? null : String(value);
};

interface Node {
  span: ReceivedSpan | null;
  spanId: string;
  parentSpanId: string | null;
  start: bigint;
  children: Node[];
}

function byStart(a: Node, b: Node): number {
  if (a.start !== b.start) return a.start < b.start ? -1 : 1;
  return a.spanId < b.spanId ? -1 : a.spanId > b.spanId ? 1 : 0;
}

/** Every span under its parent; a parent that never arrived becomes a placeholder root. */
function buildForest(spans: readonly ReceivedSpan[]): { roots: Node[]; nodes: Node[] } {
  const nodes = new Map<string, Node>();
  for (const span of spans) {
    nodes.set(span.spanId, {
      span,
      spanId: span.spanId,
      parentSpanId: span.parentSpanId,
      start: span.startTimeUnixNano,
      children: [],
    });
  }
  const roots: Node[] = [];
  const missing = new Map<string, Node>();
  for (const node of nodes.values()) {
    const parentId = node.parentSpanId;
    if (parentId === null || parentId === node.spanId) {
      roots.push(node);
      continue;
    }
    let parent = nodes.get(parentId) ?? missing.get(parentId);
    if (parent === undefined) {
      parent = {
        span: null,
        spanId: parentId,
        parentSpanId: null,
        start: node.start,
        children: [],
      };
      missing.set(parentId, parent);
      roots.push(parent);
    }
    if (node.start < parent.start && parent.span === null) parent.start = node.start;
    parent.children.push(node);
  }
  return { roots, nodes: [...nodes.values()] };
}

function row(node: Node, depth: number, traceStart: bigint): TraceRow {
  const { span } = node;
  if (span === null) {
    return {
      spanId: node.spanId,
      parentSpanId: null,
      depth,
      missing: true,
      name: 'span that never arrived',
      kind: 'unspecified',
      service: null,
      serviceInstance: null,
      startOffsetMs: msBetween(traceStart, node.start),
      durationMs: null,
      status: 'unset',
      statusMessage: null,
      delivery: null,
      attributes: {},
      events: [],
    };
  }
  return {
    spanId: span.spanId,
    parentSpanId: span.parentSpanId,
    depth,
    missing: false,
    name: span.name,
    kind: span.kind,
    service: text(span.resource, 'service.name'),
    serviceInstance: text(span.resource, 'service.instance.id'),
    startOffsetMs: msBetween(traceStart, span.startTimeUnixNano),
    durationMs: msBetween(span.startTimeUnixNano, span.endTimeUnixNano),
    status: span.status.code,
    statusMessage: span.status.message,
    delivery: span.kind === 'consumer' ? deliveryOf(span.attributes) : null,
    attributes: span.attributes,
    events: span.events.map((event) => ({
      name: event.name,
      offsetMs: msBetween(traceStart, event.timeUnixNano),
      attributes: event.attributes,
    })),
  };
}

/**
 * The waterfall of one trace's spans, in whatever order they arrived.
 *
 * @example
 * assembleWaterfall(spanStore.trace(traceId)).rows.map((row) => `${'  '.repeat(row.depth)}${row.name}`);
 */
export function assembleWaterfall(spans: readonly ReceivedSpan[]): TraceWaterfall {
  if (spans.length === 0) return { startedAt: null, durationMs: 0, services: [], rows: [] };
  const start = spans.reduce(
    (min, span) => (span.startTimeUnixNano < min ? span.startTimeUnixNano : min),
    spans[0]?.startTimeUnixNano ?? 0n,
  );
  const end = spans.reduce(
    (max, span) => (span.endTimeUnixNano > max ? span.endTimeUnixNano : max),
    start,
  );
  const rows: TraceRow[] = [];
  const visited = new Set<Node>();
  // Depth-first without recursion: a trace may hold thousands of spans.
  const walk = (roots: readonly Node[]): void => {
    const pending = [...roots]
      .sort(byStart)
      .reverse()
      .map((node) => ({ node, depth: 0 }));
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      if (visited.has(next.node)) continue;
      visited.add(next.node);
      rows.push(row(next.node, next.depth, start));
      const depth = next.depth + 1;
      const children = [...next.node.children].sort(byStart).reverse();
      pending.push(...children.map((node) => ({ node, depth })));
    }
  };
  const forest = buildForest(spans);
  walk(forest.roots);
  // Spans whose parents point at each other reach no root: shown at the top rather than lost.
  walk(forest.nodes.filter((node) => !visited.has(node)));
  const services = [...new Set(rows.flatMap((r) => (r.service === null ? [] : [r.service])))];
  return {
    startedAt: new Date(Number(start / NANOS_PER_MS)).toISOString(),
    durationMs: msBetween(start, end),
    services,
    rows,
  };
}
