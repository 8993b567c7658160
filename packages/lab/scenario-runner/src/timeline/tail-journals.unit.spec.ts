import type { JournalEntry } from '@effectively-once/fault-injection';
import { describe, expect, it } from 'vitest';
import type { JournalDatabase, JournalMarks, JournalRecord, Journals } from './journals.js';
import { tailJournals } from './tail-journals.js';

const NO_MARKS: JournalMarks = { order: 0, inventory: 0, payment: 0, notification: 0 };

function entry(id: number, kind: JournalEntry['kind'] = 'delivered'): JournalEntry {
  return {
    id,
    at: new Date(1_700_000_000_000 + id).toISOString(),
    service: 'inventory',
    pid: 4242,
    kind,
    consumer: 'inventory-reservation-v1',
    messageId: `message-${String(id)}`,
    eventType: 'OrderPlaced',
    orderId: 'order-1',
    detail: {},
  };
}

/**
 * Journals in memory. `honourMarks: false` answers every entry on every read,
 * as an overlapping or repeated read would: the tail must still hand each on once.
 */
function fakeJournals(options: { honourMarks: boolean }) {
  const written: JournalRecord[] = [];
  const reads: JournalMarks[] = [];
  const journals: Journals = {
    mark: () => Promise.resolve(NO_MARKS),
    since: (marks) => {
      reads.push({ ...marks });
      return Promise.resolve(
        written.filter(
          ({ database, entry: { id } }) => !options.honourMarks || id > marks[database],
        ),
      );
    },
    close: () => Promise.resolve(),
  };
  const write = (database: JournalDatabase, id: number): void => {
    written.push({ database, entry: entry(id) });
  };
  return { journals, reads, write };
}

/** Collects what the tail hands on; `until(n)` resolves once n records arrived. */
function recorder() {
  const received: string[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const onRecord = ({ database, entry: { id } }: JournalRecord): void => {
    received.push(`${database}:${String(id)}`);
    for (const waiter of waiters) if (received.length >= waiter.count) waiter.resolve();
  };
  const until = (count: number): Promise<void> =>
    received.length >= count
      ? Promise.resolve()
      : new Promise((resolve) => waiters.push({ count, resolve }));
  return { received, onRecord, until };
}

/** The tail under test, handing on to `seen`: from no marks and every millisecond unless given. */
function startTail(
  journals: Journals,
  seen: { onRecord: (record: JournalRecord) => void },
  options: { marks?: JournalMarks; intervalMs?: number } = {},
) {
  return tailJournals({
    journals,
    marks: options.marks ?? NO_MARKS,
    onRecord: seen.onRecord,
    intervalMs: options.intervalMs ?? 1,
  });
}

describe('tailJournals', () => {
  it('hands on each entry once, even when the journals answer it on every read', async () => {
    // Given journals that answer everything each time, with two entries already written
    const { journals, write } = fakeJournals({ honourMarks: false });
    write('order', 1);
    write('inventory', 1);
    const seen = recorder();

    // When the tail polls, a third entry arrives, and the tail polls again
    const tail = startTail(journals, seen);
    await seen.until(2);
    write('inventory', 2);
    await seen.until(3);
    await tail.stop();

    // Then each entry arrived exactly once, in the order written
    expect(seen.received).toEqual(['order:1', 'inventory:1', 'inventory:2']);
  });

  it('tells entries of different databases apart although their ids are equal', async () => {
    // Given the same id in two databases
    const { journals, write } = fakeJournals({ honourMarks: true });
    write('payment', 7);
    write('notification', 7);
    const seen = recorder();

    // When the tail reads them
    const tail = startTail(journals, seen);
    await seen.until(2);
    await tail.stop();

    // Then both arrived
    expect(seen.received).toEqual(['payment:7', 'notification:7']);
  });

  it('starts after the marks and moves them past what it handed on', async () => {
    // Given entries before and after the marks
    const { journals, reads, write } = fakeJournals({ honourMarks: true });
    write('order', 3);
    write('order', 4);
    write('order', 5);
    const seen = recorder();

    // When the tail starts at order 4
    const tail = startTail(journals, seen, { marks: { ...NO_MARKS, order: 4 } });
    await seen.until(1);
    await tail.stop();

    // Then only the entry after the mark arrived, and later reads asked from 5 on
    expect(seen.received).toEqual(['order:5']);
    expect(reads[0]?.order).toBe(4);
    expect(reads.at(-1)?.order).toBe(5);
  });

  it('reads once more when stopped, so nothing already written is left out', async () => {
    // Given a tail that would not poll for a minute
    const { journals, write } = fakeJournals({ honourMarks: true });
    const seen = recorder();
    const tail = startTail(journals, seen, { intervalMs: 60_000 });

    // When an entry is written and the tail is stopped
    write('payment', 1);
    await tail.stop();

    // Then the entry was handed on by the last read
    expect(seen.received).toEqual(['payment:1']);
  });

  it('keeps going after a failed read', async () => {
    // Given journals whose first read fails
    const { journals, write } = fakeJournals({ honourMarks: true });
    let failures = 1;
    const flaky: Journals = {
      ...journals,
      since: (marks) => {
        if (failures-- > 0) return Promise.reject(new Error('connection reset'));
        return journals.since(marks);
      },
    };
    write('order', 1);
    const seen = recorder();

    // When the tail polls past the failure
    const tail = startTail(flaky, seen);
    await seen.until(1);
    await tail.stop();

    // Then the entry still arrived, once
    expect(seen.received).toEqual(['order:1']);
  });
});
