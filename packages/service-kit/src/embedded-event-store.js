// The service kit's one door to the embedded event store, written in plain
// JavaScript on purpose. TypeScript follows an import only through files it
// checks, and this one it does not (the types come from the .d.ts beside it),
// so the kit, and every service built on it, typechecks with the package
// deleted, as a fork on EventStoreDB may do (packages/event-store-postgres/README.md).
// esbuild and tsx still see the import as written and load the package when it
// is installed.

const PACKAGE = '@effectively-once/event-store-postgres';

export async function loadEmbeddedEventStore() {
  try {
    return await import('@effectively-once/event-store-postgres');
  } catch (error) {
    if (isMissing(error)) {
      throw new Error(
        `No EVENTSTORE_CONNECTION_STRING is set, so this process wants the embedded event store, ` +
          `but its package ${PACKAGE} is not installed. Set EVENTSTORE_CONNECTION_STRING to an ` +
          `EventStoreDB server (esdb://… or esdb+discover://…).`,
        { cause: error },
      );
    }
    throw error;
  }
}

/** Node's answer when the package itself, not something inside it, cannot be found. */
function isMissing(error) {
  return (
    error instanceof Error &&
    'code' in error &&
    error.code === 'ERR_MODULE_NOT_FOUND' &&
    error.message.includes(`'${PACKAGE}'`)
  );
}
