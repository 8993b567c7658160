// The proof in `pnpm test` that the lab comes off in one step: a copy of this
// working tree, with the lab removed and installed offline, typechecks, passes
// its docs check, and passes every unit and integration test whose run
// reaches code the removal changed. Why that is enough, and what only
// `pnpm lab:check` (every unit and integration test of the copy) proves, is in
// docs/template-and-lab.md, "How it is proven".
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changesRuntimeCode, filesNaming, testFiles, testsReaching } from './edit-impact.js';
import { labIdentifiersIn } from './lab-identifiers.js';
import { CODE_FILE } from './lab-parts.js';
import { planRemoval } from './remove-lab.js';
import { makeTemplateCopy, type TemplateCopy } from './template-copy.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const MINUTES = 60_000;

/** What vitest.config.ts has the unit and integration tests run besides themselves. */
const RUN_BY_EVERY_TEST = [
  'tooling/vitest-summary-reporter.ts',
  'packages/postgres/src/testing/global-setup.ts',
];

/** The step before runs the docs check's tests already. */
const DOCS_CHECK = 'tooling/docs-check/';

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

  it('holds no lab identifier in the source of apps/ and packages/', () => {
    expect(labIdentifiersIn(template().root)).toEqual([]);
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
        DOCS_CHECK,
      ]);
      expect(output).toMatch(/vitest: [1-9]\d* passed, 0 failed/);
    },
    MINUTES,
  );

  it(
    'passes every unit and integration test whose run reaches code the removal changed',
    () => {
      const { plan, originals, root } = template();
      const changed = plan.edits
        .filter(({ file }) => CODE_FILE.test(file))
        .filter(({ file, text }) => changesRuntimeCode(originals.get(file) ?? '', text, file))
        .map(({ file }) => file);
      // The supervisor's lab wiring is cut from its code, so the check cannot pass vacuously.
      expect(changed).toEqual(expect.arrayContaining(['apps/supervisor/src/main.ts']));
      // Code that asks whether a lab path exists runs differently without it.
      const naming = filesNaming(root, plan.deletions);
      expect(naming).toEqual(expect.arrayContaining(['tooling/scaffold/new-service.ts']));
      // What it edits that is not code (package.json files, tsconfig.json, the
      // migrations lock), and the OpenAPI document it writes again, reach a test
      // that names them.
      const rewritten = [
        ...plan.edits.map(({ file }) => file).filter((file) => !CODE_FILE.test(file)),
        'docs/openapi.json',
      ];
      const targets = [...changed, ...naming, ...rewritten];
      // Every unit and integration test also runs the reporter, and every
      // integration test the global setup: if they reach changed code, no test is
      // known to run the same code. (The e2e setup starts the stack; no e2e runs here.)
      expect(RUN_BY_EVERY_TEST.filter((file) => existsSync(path.join(root, file)))).toEqual(
        RUN_BY_EVERY_TEST,
      );
      const setupChanged = testsReaching(root, targets, RUN_BY_EVERY_TEST).length > 0;
      const selected = setupChanged
        ? testFiles(root)
        : testsReaching(root, targets, testFiles(root));
      // Found through an import chain (the scaffolder's test reaches new-service.ts,
      // which asks whether the lab is there) and as an edited test file itself.
      expect(selected).toEqual(
        expect.arrayContaining([
          'tooling/scaffold/scaffold.int.spec.ts',
          'packages/service-kit/src/run-service/start-service.int.spec.ts',
        ]),
      );
      const output = template().run('node_modules/.bin/vitest', [
        'run',
        '--project',
        'unit',
        '--project',
        'integration',
        ...selected.filter((test) => !test.startsWith(DOCS_CHECK)),
      ]);
      expect(output).toMatch(/vitest: [1-9]\d* passed, 0 failed/);
    },
    3 * MINUTES,
  );
});
