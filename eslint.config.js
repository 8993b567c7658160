// One lint configuration for the whole repository: type-checked rules, exhaustive
// switches, type-only imports, and the architecture's import boundaries.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import fitness from './tooling/eslint-rules/index.js';

/** A package is used through its `exports`, never by reaching into its files. */
const noDeepImports = {
  group: ['@effectively-once/*/src/**', '**/packages/*/src/**', '**/packages/lab/*/src/**'],
  message: 'Import a workspace package by its name and exports, not by path.',
};

/** Shared packages never depend on deployable apps. */
const noAppsInPackages = {
  group: ['**/apps/**', '@effectively-once/*-service'],
  message: 'packages/ must not import apps/.',
};

/**
 * The pattern's core (processOnce, attemptOnce, handleDelivery) knows nothing
 * of the failure lab: the lab plugs its mistakes and faults in through hooks
 * (docs/adr/0011-the-lab-as-hooks-around-one-delivery-path.md).
 */
const noLabInCore = {
  group: ['**/mistakes', '**/mistakes/**', '**/lab/**', '@effectively-once/fault-injection'],
  message:
    'The core never imports the failure lab; the lab plugs in through ProcessingHooks / DeliveryHooks.',
};

const SERVICES = [
  'order',
  'inventory',
  'payment',
  'notification',
  'gateway',
  'supervisor',
  // lab:begin
  'console',
  // lab:end
];
const FAKE_EXTERNAL_SYSTEMS = ['payment-provider', 'mail-sink'];

/** Import patterns an app may not use; `inTests` lets tests reach the fakes' `./testing` exports. */
function appBoundaries(inTests) {
  const services = SERVICES.join('|');
  const fakes = FAKE_EXTERNAL_SYSTEMS.join('|');
  return [
    {
      group: ['../*/src/**', '../../*/src/**', '../../../*/src/**', '../../../../*/src/**'],
      message: 'Apps never import each other by path; they talk through packages/contracts.',
    },
    {
      regex: inTests
        ? `^@effectively-once/((${services})(/.*)?|(${fakes})(?!/testing$)(/.*)?)$`
        : `^@effectively-once/(${services}|${fakes})(/.*)?$`,
      message: inTests
        ? 'Tests may import only the fake external systems, through their ./testing export.'
        : 'Apps never import each other; they talk through packages/contracts.',
    },
  ];
}

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
          patterns: [noDeepImports, noAppsInPackages],
        },
      ],
    },
  },
  {
    // The idempotency core and the consumer loop: no lab parts, not even in
    // their tests (the lab's mistakes and faults live in packages/lab).
    files: ['packages/idempotency/src/**/*.ts', 'packages/service-kit/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [noDeepImports, noAppsInPackages, noLabInCore] },
      ],
    },
  },
  {
    // Apps never import each other: they talk through messages and HTTP.
    files: ['apps/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [noDeepImports, ...appBoundaries(false)] }],
    },
  },
  {
    // Except that a test may run a fake external system (the card processor,
    // the SMTP sink) for real, through that app's `./testing` export.
    files: ['apps/**/*.spec.ts', 'apps/{*,lab/*}/src/testing/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [noDeepImports, ...appBoundaries(true)] }],
    },
  },
  {
    // Domain code is pure: decisions from data, no I/O. It sees the contracts
    // and its own domain, never adapters, drivers, the clock or the network.
    files: ['apps/{*,lab/*}/src/domain/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/*.fixtures.ts', 'apps/{*,lab/*}/src/domain/testing/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            noDeepImports,
            ...appBoundaries(false),
            {
              regex: '^@effectively-once/(?!contracts$)',
              message:
                'Domain code may import only @effectively-once/contracts and its own domain.',
            },
            {
              group: ['**/adapters/**', '**/app.js', '**/server.js', '**/config.js', 'node:*'],
              message: 'Domain code is pure: no adapters, composition roots or Node.js I/O.',
            },
            {
              group: ['pg', 'kysely', 'fastify', 'nodemailer', 'undici', 'prom-client'],
              message: 'Domain code is pure: drivers and frameworks belong in adapters.',
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process']",
          message: 'Domain code is pure: no process, environment or I/O.',
        },
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'Domain code takes the time as an argument (`now`), never reads the clock.',
        },
        {
          selector: "MemberExpression[object.name='Date'][property.name='now']",
          message: 'Domain code takes the time as an argument (`now`), never reads the clock.',
        },
      ],
    },
  },
  // lab:begin
  {
    // The console's page runs in the browser: it bundles preact and its own
    // files only. Types may come from the console's API module and the
    // contracts, but no runtime code: zod alone would cost ~90 kB gzipped.
    files: ['apps/lab/console/src/web/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['zod', 'zod/*', 'node:*', '@effectively-once/*', '../../*', '../../../*'],
              allowTypeImports: true,
              message:
                'The browser bundle imports only preact and its own files; types may come from src/api and the contracts.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'No process in the browser.' },
      ],
    },
  },
  // lab:end
  {
    // Fitness checks: the pattern's guarantees as lint rules (docs/fitness-rules.md).
    plugins: { 'effectively-once': fitness },
    rules: {
      'effectively-once/no-ack-outside-settle-delivery': 'error',
      'effectively-once/no-event-store-append': 'error',
      'effectively-once/no-network-in-process-once-work': [
        'error',
        {
          runners: {
            processOnce: 'work',
            attemptOnce: 'work',
            processBatchOnce: 'work',
            // The payment consumer's processOnce for its marker: the work is its third argument.
            processPaymentMessage: 2,
          },
        },
      ],
      'effectively-once/consumer-name-has-version': 'error',
    },
  },
  {
    // The two writers of the event store: the outbox relay publishes what
    // services enqueued, and the order service's event-sourced stream is
    // written by its own load-decide-append.
    files: [
      'packages/outbox/src/publish-batch.ts',
      'apps/order/src/adapters/eventStore/order-stream.ts',
      // The traced store forwards every append to the real one, around its spans.
      'packages/service-kit/src/tracing/traced-event-store.ts',
    ],
    rules: { 'effectively-once/no-event-store-append': 'off' },
  },
  {
    // The event store implements the port: its deliveries' ack() and its
    // appends are the broker's side of the contract, not a consumer's. Its
    // benchmarks and the saga's drive the store directly to measure it.
    files: ['packages/event-store/**', 'packages/event-store-postgres/**', '**/bench/**'],
    rules: {
      'effectively-once/no-ack-outside-settle-delivery': 'off',
      'effectively-once/no-event-store-append': 'off',
    },
  },
  {
    // Tests and test kits settle deliveries and write streams by hand to set
    // up the case they test; the event store's contract suites are tests too.
    files: ['**/*.spec.ts', '**/*.fixtures.ts', '**/testing/**'],
    rules: {
      'effectively-once/no-ack-outside-settle-delivery': 'off',
      'effectively-once/no-event-store-append': 'off',
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
