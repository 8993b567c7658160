// The results as tables: printed to the console and written to the docs.
import { formatMicros, formatPercent, formatRate, textTable, verdict } from './tables.js';
import {
  BATCH_TARGET,
  LIBRARY_TARGET,
  pgbenchTarget,
  type LevelSummary,
  type Summary,
} from './results.js';

type Table = (headers: readonly string[], rows: readonly (readonly string[])[]) => string;

const TARGET_HEADER = `≥ ${formatPercent(LIBRARY_TARGET)}`;

export function throughputTable(summary: Summary, table: Table): string {
  const headers = [
    'concurrency',
    'library msg/s',
    'raw pg msg/s',
    'ratio',
    TARGET_HEADER,
    'pgbench tps',
    'of pgbench',
    'target',
  ];
  const rows = summary.levels.map((level) => [
    String(level.concurrency),
    formatRate(level.library),
    formatRate(level.rawPg),
    formatPercent(level.ratio),
    verdict(level.meetsTarget),
    formatRate(level.pgbench),
    level.ofPgbench === undefined ? 'n/a' : formatPercent(level.ofPgbench),
    level.meetsPgbenchTarget === undefined
      ? 'n/a'
      : `≥ ${formatPercent(pgbenchTarget(level.concurrency))}: ${verdict(level.meetsPgbenchTarget)}`,
  ]);
  return table(headers, rows);
}

export function batchLine({ batch }: Summary): string {
  return (
    `batch mode (${String(batch.batchSize)} messages per transaction, concurrency 1): ` +
    `${formatRate(batch.messagesPerSecond)} msg/s = ${batch.speedup.toFixed(1)}× ` +
    `single-message (target ≥ ${String(BATCH_TARGET)}×): ${verdict(batch.meetsTarget)}`
  );
}

/** Share of one core the benchmark process spent, library path. */
function libraryCoreShare(level: LevelSummary): number | undefined {
  return level.libraryCpuUs === undefined ? undefined : (level.library * level.libraryCpuUs) / 1e6;
}

/** Where the time goes: the Node process's CPU per message, by path. */
export function cpuTable(summary: Summary, table: Table): string {
  const headers = ['concurrency', 'library CPU/msg', 'raw pg CPU/msg', 'Node core busy (library)'];
  const rows = summary.levels.map((level) => {
    const share = libraryCoreShare(level);
    return [
      String(level.concurrency),
      formatMicros(level.libraryCpuUs),
      formatMicros(level.rawPgCpuUs),
      share === undefined ? 'n/a' : formatPercent(share),
    ];
  });
  rows.push(['batch', formatMicros(summary.batch.cpuUs), 'n/a', 'n/a']);
  return table(headers, rows);
}

/** Where the library's time goes, from the concurrency-1 runs. */
export function breakdownLine({ breakdown }: Summary): string {
  if (breakdown === undefined) return '';
  const { rawPgMicros, kyselyMicros, libraryMicros } = breakdown;
  const plus = (micros: number): string => `${micros >= 0 ? '+' : ''}${formatMicros(micros)}`;
  return (
    `Time per message at concurrency 1: raw pg ${formatMicros(rawPgMicros)}; ` +
    `the same SQL in a Kysely transaction ${formatMicros(kyselyMicros)} (${plus(kyselyMicros - rawPgMicros)}: Kysely); ` +
    `processOnce ${formatMicros(libraryMicros)} (${plus(libraryMicros - kyselyMicros)}: processOnce itself).`
  );
}

/** One sentence per missed target; the breakdown line says where the time goes. */
export function missNotes(summary: Summary): string[] {
  const notes = summary.levels
    .filter((level) => !level.meetsTarget)
    .map((level) => {
      const extraCpu = (level.libraryCpuUs ?? 0) - (level.rawPgCpuUs ?? 0);
      return (
        `MISS at concurrency ${String(level.concurrency)}: the library reaches ${formatPercent(level.ratio)} of raw pg ` +
        `(target ${formatPercent(LIBRARY_TARGET)}); it spends ${formatMicros(extraCpu)} more CPU per message in this process.`
      );
    });
  for (const level of summary.levels) {
    if (level.meetsPgbenchTarget !== false || level.ofPgbench === undefined) continue;
    notes.push(
      `MISS at concurrency ${String(level.concurrency)}: the library reaches ${formatPercent(level.ofPgbench)} of pgbench ` +
        `(target ${formatPercent(pgbenchTarget(level.concurrency))}).`,
    );
  }
  if (!summary.batch.meetsTarget) {
    notes.push(
      `MISS in batch mode: ${summary.batch.speedup.toFixed(1)}× single-message throughput (target ${String(BATCH_TARGET)}×); batch CPU per message is ${formatMicros(summary.batch.cpuUs)}.`,
    );
  }
  return notes;
}

export function consoleReport(summary: Summary): string {
  const notes = missNotes(summary);
  return [
    throughputTable(summary, textTable),
    '',
    batchLine(summary),
    breakdownLine(summary),
    '',
    'CPU of this Node process per message (median of the runs):',
    cpuTable(summary, textTable),
    '',
    ...(notes.length === 0 ? ['All targets met.'] : notes),
  ].join('\n');
}
