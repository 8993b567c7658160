// The proof in `pnpm test` that the lab comes off in one step: a copy of this
// working tree, with the lab removed and installed offline, typechecks, and the
// supervisor, whose lab regions are the most, passes its unit and integration
// tests there (one of those bundles every process the template runs). The full
// proof, every unit and integration test of the copy, is `pnpm lab:check`
// (docs/template-and-lab.md).
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planRemoval } from './remove-lab.js';
import { makeTemplateCopy, type TemplateCopy } from './template-copy.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const MINUTES = 60_000;

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
    "passes the supervisor's unit and integration tests",
    () => {
      const output = template().run('node_modules/.bin/vitest', [
        'run',
        '--project',
        'unit',
        '--project',
        'integration',
        'apps/supervisor/src/',
      ]);
      expect(output).toMatch(/vitest: [1-9]\d* passed, 0 failed/);
    },
    3 * MINUTES,
  );
});
