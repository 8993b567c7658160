// The repository's own message contracts, loaded at run time from the
// repository being scaffolded (tooling is no workspace package and imports
// none): which event types exist, and whether a sample payload still parses.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { EVENT_SAMPLES, sampleOf } from './event-samples.js';
import { ScaffoldError } from './names.js';

export interface Contracts {
  isKnownEventType(type: string): boolean;
  /** Throws, saying which field is wrong, when `data` does not fit the contract of `type`. */
  parseEvent(raw: { type: string; data: unknown }): unknown;
}

function isContracts(module: unknown): module is Contracts {
  const candidate = module as Partial<Record<keyof Contracts, unknown>>;
  return (
    typeof candidate.isKnownEventType === 'function' && typeof candidate.parseEvent === 'function'
  );
}

/** packages/contracts of the repository at `root`. */
export async function loadContracts(root: string): Promise<Contracts> {
  const entry = path.join(root, 'packages/contracts/src/index.ts');
  const module: unknown = await import(pathToFileURL(entry).href);
  if (!isContracts(module)) {
    throw new ScaffoldError(`${entry} exports no isKnownEventType and parseEvent.`);
  }
  return module;
}

/** The event types the scaffolder can write a test for: known to the contracts, with a sample. */
export function eventTypes(contracts: Contracts): string[] {
  return Object.keys(EVENT_SAMPLES).filter((type) => contracts.isKnownEventType(type));
}

/**
 * Refuses an event type the contracts do not know, or one whose sample no
 * longer parses (its schema changed): the generated test would not compile or pass.
 */
export function checkConsumable(contracts: Contracts, type: string): void {
  if (!contracts.isKnownEventType(type)) {
    throw new ScaffoldError(
      `Unknown event type ${JSON.stringify(type)}: --on takes one of ${eventTypes(contracts).join(', ')}.`,
    );
  }
  const sample = sampleOf(type, '00000000-0000-4000-8000-000000000001');
  if (sample === undefined) {
    throw new ScaffoldError(
      `${type} has no sample payload for the generated test: add one to tooling/scaffold/event-samples.ts.`,
    );
  }
  try {
    contracts.parseEvent({ type, data: sample });
  } catch (error) {
    throw new ScaffoldError(
      `The sample ${type} in tooling/scaffold/event-samples.ts no longer fits its contract: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
