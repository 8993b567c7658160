// Follows the lab journals while a scenario runs, so that a live view (the
// console) sees deliveries, faults and crashes as they happen instead of all
// at once when the run ends. Each database's mark moves past every entry
// handed on, and an entry at or below its mark is dropped: nothing is handed
// on twice, however the polls overlap with what the journals return.
import type { JournalMarks, JournalRecord, Journals } from './journals.js';

export const DEFAULT_JOURNAL_POLL_MS = 250;

export interface JournalTail {
  /** Stops polling, after one last read so that what is already written is handed on. */
  stop(): Promise<void>;
}

/**
 * @example
 * const tail = tailJournals({ journals, marks, onRecord: (record) => show(record), intervalMs: 250 });
 * await scenario.run(context);
 * await tail.stop();
 */
export function tailJournals(input: {
  journals: Journals;
  marks: JournalMarks;
  onRecord: (record: JournalRecord) => void;
  intervalMs?: number;
}): JournalTail {
  const { journals, onRecord } = input;
  const intervalMs = input.intervalMs ?? DEFAULT_JOURNAL_POLL_MS;
  const marks = { ...input.marks };
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let polling: Promise<void> = Promise.resolve();

  const poll = async (): Promise<void> => {
    try {
      for (const record of await journals.since(marks)) {
        const { database, entry } = record;
        // inventory and inventory-2 share a journal and may commit ids out of
        // order: one committed below a mark already passed is skipped here,
        // live only; the run's final read of the journals still has it.
        if (entry.id <= marks[database]) continue;
        marks[database] = entry.id;
        onRecord(record);
      }
    } catch {
      // A failed read only delays the live view: the next poll reads the
      // same entries again, and the run's own final read has them all.
    }
  };

  const schedule = (): void => {
    timer = setTimeout(() => {
      polling = poll().finally(() => {
        if (!stopped) schedule();
      });
    }, intervalMs);
  };
  schedule();

  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await polling;
      await poll();
    },
  };
}
