// ESLint's RuleTester, run under vitest and reading TypeScript: each fixture
// becomes one vitest test, and a fixture that is expected to fail but passes
// (or the reverse) fails that test.
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, it } from 'vitest';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

export const ruleTester = new RuleTester({
  languageOptions: { parser: tseslint.parser, ecmaVersion: 'latest', sourceType: 'module' },
});
