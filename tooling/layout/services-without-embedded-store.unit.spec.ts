// The proof behind docs/layout.md's claim that a production fork on
// EventStoreDB can delete the embedded event store: with its package hidden
// from the compiler, the four saga services' entry points and unit tests, and
// everything they import, typecheck. An import of the package anywhere in that
// graph (even a type-only one, even behind a dynamic import) would fail here,
// so the unit tests, which run the same graph, load none of its files either.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileServices, SAGA_SERVICES, serviceRoots } from './compile-services.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const EMBEDDED_STORE = 'packages/event-store-postgres';

describe('the saga services without the embedded event store', () => {
  it('start from each service entry point and every unit test', () => {
    const roots = serviceRoots(repoRoot);
    for (const service of SAGA_SERVICES) {
      expect(roots).toContain(`apps/${service}/src/server.ts`);
      expect(roots.filter((file) => file.startsWith(`apps/${service}/`)).length).toBeGreaterThan(1);
    }
  });

  it('typecheck with its package deleted, so their unit tests never load it', () => {
    const { files, errors } = compileServices(repoRoot, { hidden: [EMBEDDED_STORE] });
    expect(errors).toEqual([]);
    // The graph reaches the kit's loader of the embedded store, which the compiler does not follow.
    expect(files).toContain('packages/service-kit/src/open-event-store.ts');
    expect(files.filter((file) => file.startsWith(`${EMBEDDED_STORE}/`))).toEqual([]);
  }, 60_000);
});
