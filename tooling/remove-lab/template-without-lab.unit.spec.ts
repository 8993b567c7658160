// The proof in `pnpm test` that the lab comes off in one step: a copy of this
// working tree, with the lab removed and installed offline, typechecks, passes
// its docs check, and passes the unit and integration tests of every file
// whose run-time code the removal changed. Why that is enough, and what only
// `pnpm lab:check` (every unit and integration test of the copy) proves, is in
// docs/template-and-lab.md, "How it is proven".
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changesRuntimeCode, testFiles, testsImporting } from './edit-impact.js';
import { CODE_FILE } from './lab-parts.js';
import { planRemoval } from './remove-lab.js';
import { makeTemplateCopy, type TemplateCopy } from './template-copy.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const MINUTES = 60_000;

/**
 * Run whatever the removal edited: it bundles every process the template
 * starts, the saga services' `server.ts` files included, which it reaches
 * through esbuild rather than an import.
 */
const ALWAYS_RUN = ['apps/supervisor/src/process-bundles.int.spec.ts'];

describe('the template without the lab', () => {
  let copy: TemplateCopy | undefined;
  const template = (): TemplateCopy => {
    if (copy === undefined) throw new Error('the copy was not made');
    return copy;
  };

  beforeAll(() => {
    copy = makeTemplateCopy(repoRoot);
  }, 3 * MINUTES);
  afterAll(() => copy?.remove(), MINUTES);

  it('has nothing of the lab left to remove', () => {
    expect(template().plan.deletions.length).toBeGreaterThan(0);
    const again = planRemoval(template().root);
    expect(again).toEqual({ deletions: [], edits: [] });
  });

  it(
    'typechecks',
    () => {
      expect(template().run('pnpm', ['run', 'typecheck'])).not.toMatch(/error TS/);
    },
    3 * MINUTES,
  );

  it(
    'passes its docs check: no page names a lab page, path or command',
    () => {
      const output = template().run('node_modules/.bin/vitest', [
        'run',
        '--project',
        'unit',
        'tooling/docs-check/',
      ]);
      expect(output).toMatch(/vitest: [1-9]\d* passed, 0 failed/);
    },
    MINUTES,
  );

  it(
    'passes the tests of every file whose run-time code the removal changed',
    () => {
      const { plan, originals, root } = template();
      const changed = plan.edits
        .filter(({ file }) => CODE_FILE.test(file))
        .filter(({ file, text }) => changesRuntimeCode(originals.get(file) ?? '', text, file))
        .map(({ file }) => file);
      // The supervisor's lab wiring is cut from its code, so the check cannot pass vacuously.
      expect(changed).toEqual(expect.arrayContaining(['apps/supervisor/src/main.ts']));
      const selected = [
        ...new Set([...testsImporting(root, changed, testFiles(root)), ...ALWAYS_RUN]),
      ];
      const output = template().run('node_modules/.bin/vitest', [
        'run',
        '--project',
        'unit',
        '--project',
        'integration',
        ...selected,
      ]);
      expect(output).toMatch(/vitest: [1-9]\d* passed, 0 failed/);
    },
    3 * MINUTES,
  );
});
