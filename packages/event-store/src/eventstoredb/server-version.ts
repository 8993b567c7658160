// The oldest EventStoreDB this adapter runs on, checked once per store before
// the first call, so an old server fails with a sentence instead of a gRPC
// UNIMPLEMENTED deep inside a subscription.
import { EventStoreError } from '../port/errors.js';

/**
 * 22.10: persistent subscriptions to $all (21.10), their gRPC info and
 * parked-message replay (22.6), and an update that keeps the group's $all
 * filter (older servers clear it). infra/docker-compose.yml runs 24.10.
 */
export const MIN_SERVER_VERSION = '22.10';

/** What the client reports: `serverVersion` is "unknown" on servers before 21.10. */
export interface ServerFeaturesSource {
  readonly capabilities: Promise<{ readonly serverVersion: string }>;
}

function majorMinor(version: string): [number, number] | undefined {
  const match = /^(\d+)\.(\d+)/.exec(version);
  return match === null ? undefined : [Number(match[1]), Number(match[2])];
}

/** True when `version` ("24.10.0.0") is at or above `minimum` ("22.10"). */
export function isAtLeast(version: string, minimum: string): boolean {
  const have = majorMinor(version);
  const need = majorMinor(minimum);
  if (have === undefined || need === undefined) return false;
  return have[0] !== need[0] ? have[0] > need[0] : have[1] >= need[1];
}

/**
 * Throws an EventStoreError naming the version needed when the server is older.
 *
 * @example
 * await assertServerVersion(client as unknown as ServerFeaturesSource);
 */
export async function assertServerVersion(source: ServerFeaturesSource): Promise<void> {
  const { serverVersion } = await source.capabilities;
  if (isAtLeast(serverVersion, MIN_SERVER_VERSION)) return;
  const server =
    serverVersion === 'unknown'
      ? 'This EventStoreDB server does not report its version (it is older than 21.10)'
      : `EventStoreDB ${serverVersion} is too old`;
  throw new EventStoreError(
    'UNSUPPORTED_SERVER_VERSION',
    `${server}: this adapter needs EventStoreDB ${MIN_SERVER_VERSION} or later (see infra/docker-compose.yml and docs/event-store.md).`,
  );
}

/**
 * The check, run once per store: a success is remembered, a failure (the
 * server was down, or is too old) is tried again on the next call.
 *
 * @example
 * const ready = serverVersionCheck(client as unknown as ServerFeaturesSource);
 * await ready();
 */
export function serverVersionCheck(source: ServerFeaturesSource): () => Promise<void> {
  let checked: Promise<void> | undefined;
  return () =>
    (checked ??= assertServerVersion(source).catch((error: unknown) => {
      checked = undefined;
      throw error;
    }));
}
