// The mistake switches in SQL. They live in the database, not in memory,
// because a mistake must survive the crash it is switched on to demonstrate,
// and every process of the service must see it.
import type { Kysely } from 'kysely';
import type { LabTables } from './lab.tables.js';
import { MISTAKES, type Mistake } from './mistakes.js';

/** Every consumer's switched-on mistake; a row naming an unknown mistake is ignored. */
export async function loadMistakes(db: Kysely<LabTables>): Promise<Map<string, Mistake>> {
  const rows = await db.selectFrom('lab_mistake').select(['consumer', 'mistake']).execute();
  const mistakes = new Map<string, Mistake>();
  for (const row of rows) {
    const mistake = MISTAKES.find((known) => known === row.mistake);
    if (mistake !== undefined) mistakes.set(row.consumer, mistake);
  }
  return mistakes;
}

/** Switches a consumer's mistake on (or to another), or off with `null`. */
export async function saveMistake(
  db: Kysely<LabTables>,
  input: { consumer: string; mistake: Mistake | null; now: Date },
): Promise<void> {
  const { consumer, mistake, now } = input;
  if (mistake === null) {
    await db.deleteFrom('lab_mistake').where('consumer', '=', consumer).execute();
    return;
  }
  await db
    .insertInto('lab_mistake')
    .values({ consumer, mistake, set_at: now })
    .onConflict((conflict) => conflict.column('consumer').doUpdateSet({ mistake, set_at: now }))
    .execute();
}
