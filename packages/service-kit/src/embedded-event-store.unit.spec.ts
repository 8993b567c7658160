import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as embeddedPackage from '@effectively-once/event-store-postgres';
import { describe, expect, it } from 'vitest';
import { type EmbeddedEventStore, loadEmbeddedEventStore } from './embedded-event-store.js';

// The declaration beside the loader is written by hand, so that it holds with
// the package deleted; this assignment fails the typecheck when the package's
// exports stop fitting it.
const packageFitsTheDeclaration: EmbeddedEventStore = embeddedPackage;

describe('loadEmbeddedEventStore', () => {
  it('given the package is installed, when it loads, then it hands over the package itself', async () => {
    const loaded = await loadEmbeddedEventStore();

    expect(loaded.createPostgresEventStore).toBe(
      packageFitsTheDeclaration.createPostgresEventStore,
    );
    expect(loaded.eventStoreMigrations).toBe(packageFitsTheDeclaration.eventStoreMigrations);
  });

  it('given the package is not installed, when it loads, then the error names the setting to change', () => {
    // A copy of the loader where Node finds no node_modules: the package is as absent as in a fork that deleted it.
    const folder = mkdtempSync(path.join(tmpdir(), 'eo-no-embedded-store-'));
    try {
      const loader = path.join(folder, 'embedded-event-store.js');
      copyFileSync(fileURLToPath(new URL('./embedded-event-store.js', import.meta.url)), loader);
      const run = spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '--eval',
          `const { loadEmbeddedEventStore } = await import(${JSON.stringify(loader)});
           await loadEmbeddedEventStore().catch((error) => { console.error(error.message); process.exit(3); });`,
        ],
        { cwd: folder, encoding: 'utf8' },
      );

      expect(run.status).toBe(3);
      expect(run.stderr).toMatch(
        /No EVENTSTORE_CONNECTION_STRING is set, .*@effectively-once\/event-store-postgres is not installed/,
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
