// The mistake switches of one process: persisted in lab_mistake, answered
// synchronously from memory (processOnce and the consumer loop ask without
// awaiting), and re-read so that every process of the service follows them.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { LabTables } from './lab.tables.js';
import type { Mistake } from './mistakes.js';
import { loadMistakes, saveMistake } from './mistakes.repository.js';

export interface MistakeSwitches {
  get(consumer: string): Mistake | undefined;
  /** Consumer -> mistake, for every switch that is on. */
  all(): Record<string, Mistake>;
  /** Persists the switch, then follows it in this process at once. */
  set(consumer: string, mistake: Mistake | null, now: Date): Promise<void>;
  /**
   * Re-reads the switches: another process of the service shares the
   * database, not the HTTP call that flipped one. Failures keep the last ones.
   */
  refresh(): Promise<void>;
}

export async function openMistakeSwitches(input: {
  db: Kysely<LabTables>;
  log: FastifyBaseLogger;
}): Promise<MistakeSwitches> {
  const { db, log } = input;
  let current = await loadMistakes(db);
  // Bumped by every set: a re-read that began before a set would bring back
  // the switch as it was, so it is dropped.
  let version = 0;
  return {
    get: (consumer) => current.get(consumer),
    all: () => Object.fromEntries(current),
    async set(consumer, mistake, now) {
      await saveMistake(db, { consumer, mistake, now });
      version += 1;
      current = new Map(current);
      if (mistake === null) current.delete(consumer);
      else current.set(consumer, mistake);
    },
    async refresh() {
      const startedAt = version;
      try {
        const loaded = await loadMistakes(db);
        if (version === startedAt) current = loaded;
      } catch (error) {
        log.warn(
          { err: error },
          'could not re-read the lab mistake switches; keeping the last ones',
        );
      }
    },
  };
}
