// One scenario's story in time order: what the runner did (its steps) and what
// every process recorded in its lab journal (deliveries, claims, commits,
// faults, crashes, restarts, acknowledgments), read back from their databases
// so that a crashed process's last words are there too.
import type { JournalEntry } from '@effectively-once/fault-injection';
import type { JournalDatabase } from './journals.js';

export type TimelineEntry =
  | { source: 'runner'; at: Date; text: string }
  | { source: 'journal'; at: Date; database: JournalDatabase; entry: JournalEntry };

const KIND_LABELS: Readonly<Record<string, string>> = {
  'process-started': 'process started',
  delivered: 'delivered',
  postponed: 'postponed (handed back unprocessed)',
  claiming: 'claiming',
  claimed: 'claimed the marker',
  'business-done': 'business change done',
  handled: 'committed',
  acked: 'acknowledged',
  'handed-back': 'handed back for retry',
  parked: 'parked',
  fault: 'fault fired',
  held: 'held',
  released: 'released',
  crash: 'CRASH (SIGKILL)',
  'provider-authorized': 'provider authorized',
  'provider-captured': 'provider captured',
  'email-sent': 'email sent',
  'relay-appended': 'relay appended',
  'mistake-set': 'mistake switched',
  'acked-before-commit': 'acknowledged BEFORE commit',
};

function short(id: string | null | undefined): string {
  return id === null || id === undefined ? '' : id.slice(0, 8);
}

function describeDetail(detail: Record<string, unknown>): string {
  const shown = [
    'point',
    'action',
    'outcome',
    'attempt',
    'attempts',
    'retryCount',
    'then',
    'mistake',
    'reason',
  ];
  return shown
    .filter((key) => detail[key] !== undefined && detail[key] !== null)
    .map(
      (key) =>
        `${key}=${typeof detail[key] === 'string' ? detail[key] : JSON.stringify(detail[key])}`,
    )
    .join(' ');
}

/** One line per entry, times relative to the first: `+  412 ms  inventory#123  ...`. */
export function formatTimeline(entries: readonly TimelineEntry[]): string[] {
  const sorted = [...entries].sort((a, b) => a.at.getTime() - b.at.getTime());
  const start = sorted[0]?.at.getTime() ?? 0;
  return sorted.map((item) => {
    const offset = `+${String(item.at.getTime() - start).padStart(6)} ms`;
    if (item.source === 'runner') return `${offset}  ${'runner'.padEnd(22)} ${item.text}`;
    const { entry } = item;
    const who = `${entry.service}#${String(entry.pid)}`.padEnd(22);
    const outcome = entry.detail['outcome'];
    const failed =
      entry.kind === 'handled' && typeof outcome === 'string' && outcome.endsWith('_failure');
    const what = failed ? 'handler failed' : (KIND_LABELS[entry.kind] ?? entry.kind);
    const parts = [
      what,
      entry.consumer ?? '',
      entry.eventType ?? '',
      entry.messageId === null ? '' : `msg=${short(entry.messageId)}`,
      entry.orderId === null ? '' : `order=${short(entry.orderId)}`,
      describeDetail(entry.detail),
    ].filter((part) => part !== '');
    return `${offset}  ${who} ${parts.join('  ')}`;
  });
}
