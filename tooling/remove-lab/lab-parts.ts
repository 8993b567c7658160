// What the lab is, for `pnpm lab:remove` (docs/template-and-lab.md): the
// folders and files it deletes, the workspace packages and dependencies it
// drops from every package.json, and the root scripts that only the lab uses.
// Everything else is the template. Code of the template that wires the lab in
// sits between `// lab:begin` and `// lab:end` lines and goes too.

/** Deleted as a whole, relative to the repository root. */
export const LAB_PATHS: readonly string[] = [
  // The lab's apps, packages and tests across processes (with the browser that drives the console).
  'apps/lab',
  'packages/lab',
  'e2e/lab',
  // The supervisor's lab mode, attached through its extension point (ADR 0037): the
  // console process, lab-control, the fault proxy's links, the lab's ports and banner lines.
  'apps/supervisor/src/lab',
  // The gateway's side of the console: its routes, the lineage and stuck-order routes it
  // forwards to the console, their OpenAPI paths and the console's stand-in for tests.
  'apps/gateway/src/lab',
  // An order's lineage, which only the console assembles (ADR 0019): each service's
  // GET /lineage route, the order service's timers for it, and its public body.
  'packages/service-kit/src/lineage',
  'packages/service-kit/src/lineage.ts',
  'apps/order/src/order-lineage',
  'packages/contracts/src/api/lineage.api.ts',
  // Their pages.
  'docs/console',
  'docs/console.md',
  'docs/scenarios',
  'docs/exercise-break-it.md',
  'docs/fault-injection.md',
  'docs/fault-proxy.md',
  'docs/invariants.md',
  'docs/lineage.md',
  'docs/soak.md',
  // The decisions that concern only the lab: the console's front end and process, the
  // lineage it assembles, the fault proxy, how the lab comes off, and the spans it receives.
  'docs/adr/0007-console-front-end-preact-and-esbuild.md',
  'docs/adr/0008-console-as-its-own-process-behind-the-gateway.md',
  'docs/adr/0019-lineage-assembled-by-the-console.md',
  'docs/adr/0020-network-faults-from-an-in-process-proxy.md',
  'docs/adr/0026-template-and-lab-separable.md',
  // The docs check of the scenario table's order against the lab's runner.
  'tooling/docs-check/scenario-order.ts',
  'tooling/docs-check/scenario-order.unit.spec.ts',
  'docs/adr/0035-the-console-receives-otlp-json-in-memory.md',
  // This tool and its page: without the lab it has nothing left to remove.
  'tooling/remove-lab',
  'docs/template-and-lab.md',
];

/** The lab's workspace packages; imported by the template only inside `// lab:begin` regions. */
export const LAB_PACKAGES: readonly string[] = [
  '@effectively-once/console',
  '@effectively-once/scenarios',
  '@effectively-once/soak',
  '@effectively-once/fault-injection',
  '@effectively-once/fault-proxy',
  '@effectively-once/invariants',
  '@effectively-once/scenario-runner',
  '@effectively-once/lab-stack',
];

/** Dependencies that only the lab's files use, by the package.json that declares them. */
export const LAB_ONLY_DEPENDENCIES: Readonly<Record<string, readonly string[]>> = {
  // The browser tests of the console.
  'e2e/package.json': ['playwright-core', 'axe-core'],
};

/** Root scripts that run the lab, or this tool. */
export const LAB_SCRIPTS: readonly string[] = [
  'test:browser',
  'docs:console',
  'invariants',
  'lineage',
  'scenario',
  'soak',
  'lab:remove',
  'lab:check',
];

/** Root scripts that name a lab path in passing: what each becomes. */
export const SCRIPT_REWRITES: Readonly<Record<string, { from: string; to: string }>> = {
  // The console's browser page has its own tsconfig (DOM types).
  typecheck: { from: ' && tsc -p apps/lab/console/src/web/tsconfig.json', to: '' },
  // pnpm test's two lanes: the failure lab's file runs after the checks, beside the other e2e files.
  'test:lane:checks-then-failure-lab': {
    from: ' && vitest run --project e2e e2e/lab/scenarios/failure-lab.e2e.spec.ts',
    to: '',
  },
  'test:lane:e2e': { from: ' --exclude e2e/lab/scenarios/failure-lab.e2e.spec.ts', to: '' },
  // The edit loop leaves out the lab's integration tests and the removal's own proof.
  'test:fast': {
    from: ' --exclude "**/lab/**/*.int.spec.ts" --exclude tooling/remove-lab/template-without-lab.unit.spec.ts',
    to: '',
  },
};

/** The line that opens a region of template code that wires the lab in; `// lab:end` closes it. */
export const BEGIN_MARKER = '// lab:begin';
export const END_MARKER = '// lab:end';

/** Files in which regions are looked for: code, where `//` starts a comment. */
export const CODE_FILE = /\.(ts|tsx|js|mjs|cjs)$/;

/**
 * The same in the template's Markdown pages: a paragraph, list item or table
 * that tells of the lab sits between these lines, HTML comments that render as
 * nothing, and goes with the lab, so the docs check passes without it.
 */
export const MARKDOWN_BEGIN_MARKER = '<!-- lab:begin -->';
export const MARKDOWN_END_MARKER = '<!-- lab:end -->';
export const MARKDOWN_FILE = /\.md$/;

/**
 * Strings outside regions that name the lab and may stay once it is gone, by
 * file: each is harmless without the lab. The check in remove-lab.unit.spec.ts
 * fails on any other string that names a lab package or a lab folder.
 */
export const LAB_NAMES_KEPT: Readonly<Record<string, readonly string[]>> = {
  // The lab's folders (stage 3's layout), looked in only where they exist: the docs check's
  // pages and the scaffolder's workspace copy.
  'tooling/docs-check/repository.ts': ['apps/lab', 'packages/lab'],
  'tooling/scaffold/testing/workspace-copy.ts': ['apps/lab', 'packages/lab'],
  // A lint rule that forbids the core to import the lab.
  'eslint.config.js': ['**/packages/lab/*/src/**', '@effectively-once/fault-injection'],
  // The scaffolder asks whether the lab is here, and adds the lab's package only if it is.
  'tooling/scaffold/new-service.ts': ['apps/lab', 'packages/lab/fault-injection/package.json'],
  'tooling/scaffold/templates/service-files.ts': ['@effectively-once/fault-injection'],
};
