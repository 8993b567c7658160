// One lint configuration for the whole repository: type-checked rules, exhaustive
// switches, type-only imports, and the architecture's import boundaries.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** A package is used through its `exports`, never by reaching into its files. */
const noDeepImports = {
  group: ['@effectively-once/*/src/**', '**/packages/*/src/**'],
  message: 'Import a workspace package by its name and exports, not by path.',
};

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/.data/**', 'docs/**'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: false }],
      // Configuration is read in one module per package or app (config.ts):
      // scattered `process.env.X ?? default` hides what a deployment must set.
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message: 'Read environment variables only in a config.ts module, parsed with zod.',
        },
      ],
    },
  },
  {
    files: ['**/config.ts', '**/*.spec.ts', 'e2e/**', '**/bench/**', '**/examples/**'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    rules: { 'no-restricted-imports': ['error', { patterns: [noDeepImports] }] },
  },
  {
    // Shared packages never depend on deployable apps; apps talk to each other
    // only through messages, never by importing one another.
    files: ['packages/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            noDeepImports,
            {
              group: ['**/apps/**', '@effectively-once/*-service'],
              message: 'packages/ must not import apps/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.spec.ts'],
    rules: {
      // Test doubles and assertions on unknown results read better without these.
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // Plain JavaScript that runs on Node.js without a loader (the PostgreSQL guardian).
    files: ['**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
