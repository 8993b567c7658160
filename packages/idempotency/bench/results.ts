// From samples to verdicts: medians, ratios and the two targets of the issue.
import { median, type Sample } from './measure.js';
import type { RunnerName } from './workload.js';

/** The library must reach this share of the raw pg loop at every concurrency. */
export const LIBRARY_TARGET = 0.85;
/**
 * The library must reach this share of pgbench running the same transaction
 * (issue 13): 75% at one client, 65% at more, where pgbench's lighter client
 * leaves the server more of a shared CPU.
 */
export function pgbenchTarget(concurrency: number): number {
  return concurrency === 1 ? 0.75 : 0.65;
}
/** Batch mode must reach this multiple of single-message throughput at concurrency 1. */
export const BATCH_TARGET = 10;

/** Every sample taken at one concurrency, by runner. */
export interface LevelSamples {
  concurrency: number;
  samples: Partial<Record<RunnerName, Sample[]>>;
}

export interface LevelSummary {
  concurrency: number;
  library: number;
  rawPg: number;
  /** library / raw pg, of the medians. */
  ratio: number;
  meetsTarget: boolean;
  pgbench: number | undefined;
  /** library / pgbench, of the medians; undefined without pgbench. */
  ofPgbench: number | undefined;
  meetsPgbenchTarget: boolean | undefined;
  libraryCpuUs: number | undefined;
  rawPgCpuUs: number | undefined;
}

export interface BatchSummary {
  batchSize: number;
  messagesPerSecond: number;
  /** Batch throughput over single-message library throughput, both at concurrency 1. */
  speedup: number;
  meetsTarget: boolean;
  cpuUs: number | undefined;
}

/** Time per message at concurrency 1, where CPU adds straight to latency. */
export interface Breakdown {
  rawPgMicros: number;
  /** The same statements in a Kysely transaction, no processOnce. */
  kyselyMicros: number;
  libraryMicros: number;
}

export interface Summary {
  levels: LevelSummary[];
  batch: BatchSummary;
  breakdown: Breakdown | undefined;
}

function throughput(samples: readonly Sample[] | undefined): number | undefined {
  return samples === undefined ? undefined : median(samples.map((s) => s.messagesPerSecond));
}

function cpuPerMessage(samples: readonly Sample[] | undefined): number | undefined {
  const values = (samples ?? []).flatMap((s) => s.cpuUsPerMessage ?? []);
  return values.length === 0 ? undefined : median(values);
}

function summarizeLevel({ concurrency, samples }: LevelSamples): LevelSummary {
  const library = throughput(samples.library);
  const rawPg = throughput(samples['raw-pg']);
  if (library === undefined || rawPg === undefined) {
    throw new Error(`Concurrency ${String(concurrency)} lacks library or raw pg samples.`);
  }
  const ratio = library / rawPg;
  const pgbench = throughput(samples.pgbench);
  const ofPgbench = pgbench === undefined ? undefined : library / pgbench;
  return {
    concurrency,
    library,
    rawPg,
    ratio,
    meetsTarget: ratio >= LIBRARY_TARGET,
    pgbench,
    ofPgbench,
    meetsPgbenchTarget:
      ofPgbench === undefined ? undefined : ofPgbench >= pgbenchTarget(concurrency),
    libraryCpuUs: cpuPerMessage(samples.library),
    rawPgCpuUs: cpuPerMessage(samples['raw-pg']),
  };
}

export function summarize(levels: readonly LevelSamples[], batchSize: number): Summary {
  const summaries = levels.map(summarizeLevel);
  const single = summaries.find((level) => level.concurrency === 1);
  const batchSamples = levels.find((level) => level.samples.batch !== undefined)?.samples.batch;
  const batch = throughput(batchSamples);
  if (single === undefined || batch === undefined) {
    throw new Error('Batch mode needs its samples and the library at concurrency 1.');
  }
  const speedup = batch / single.library;
  const kysely = throughput(levels.find((level) => level.concurrency === 1)?.samples.kysely);
  return {
    levels: summaries,
    breakdown:
      kysely === undefined
        ? undefined
        : {
            rawPgMicros: 1e6 / single.rawPg,
            kyselyMicros: 1e6 / kysely,
            libraryMicros: 1e6 / single.library,
          },
    batch: {
      batchSize,
      messagesPerSecond: batch,
      speedup,
      meetsTarget: speedup >= BATCH_TARGET,
      cpuUs: cpuPerMessage(batchSamples),
    },
  };
}
