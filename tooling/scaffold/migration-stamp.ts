// A new migration's name must sort after every migration its database has
// run: Kysely refuses a new name that sorts before an executed one. Names
// start with a UTC timestamp, and some of ours are dated ahead of the clock.

const STAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2})-(\d{2})/;

function format(date: Date): string {
  const iso = date.toISOString(); // 2026-12-01T21:50:12.345Z
  return `${iso.slice(0, 10)}T${iso.slice(11, 13)}-${iso.slice(14, 16)}`;
}

function parse(name: string): Date | undefined {
  const match = STAMP.exec(name);
  if (match === null) return undefined;
  const [, year, month, day, hour, minute] = match;
  return new Date(`${year ?? ''}-${month ?? ''}-${day ?? ''}T${hour ?? ''}:${minute ?? ''}:00Z`);
}

/**
 * `now` as a migration stamp, or ten minutes after the newest of `existing`
 * when that one is not older than now.
 *
 * @example
 * nextMigrationStamp(['2026-12-12T00-00-create-x.ts'], new Date('2026-12-01T21:50Z')); // '2026-12-12T00-10'
 */
export function nextMigrationStamp(existing: readonly string[], now: Date): string {
  const newest = Math.max(0, ...existing.map((name) => parse(name)?.getTime() ?? 0));
  const minute = Math.floor(now.getTime() / 60_000) * 60_000;
  return format(new Date(minute > newest ? minute : newest + 10 * 60_000));
}
