// The files of a new service, apart from its first consumer (which
// new-consumer.ts writes into it like into any service) and its server.ts
// (wiring.ts).
import type { Names } from '../names.js';
import { wrap } from './wrap.js';

export interface ServiceTemplateInput {
  readonly names: Names;
  /** The repository has the failure lab (packages/lab/fault-injection): the service can open it. */
  readonly lab: boolean;
  /** Its port when run on its own; `pnpm start` gives it one of the stack's. */
  readonly port: number;
  readonly on: string;
}

export function servicePackageJson(input: ServiceTemplateInput): string {
  const manifest = {
    name: `@effectively-once/${input.names.kebab}`,
    version: '0.1.0',
    private: true,
    type: 'module',
    description: `Scaffolded by \`pnpm new service\`: reacts to ${input.on}, once per order.`,
    scripts: { start: 'node --import tsx src/server.ts' },
    dependencies: {
      '@effectively-once/contracts': 'workspace:*',
      '@effectively-once/event-store': 'workspace:*',
      ...(input.lab ? { '@effectively-once/fault-injection': 'workspace:*' } : {}),
      '@effectively-once/idempotency': 'workspace:*',
      '@effectively-once/outbox': 'workspace:*',
      '@effectively-once/postgres': 'workspace:*',
      '@effectively-once/service-kit': 'workspace:*',
      kysely: 'catalog:',
      zod: 'catalog:',
    },
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

export function serviceConfig(input: ServiceTemplateInput): string {
  const { names, port } = input;
  return `${wrap('// ', `The ${names.kebab} service's settings: the service kit's common keys (HOST, PORT, DATABASE_URL, EVENT_STORE_DATABASE_URL, LOG_LEVEL, ADMIN_TOKEN, CONSUMER_*). The only reader of process.env in this app; add a key of its own under \`extra\`, parsed with zod.`)}
import { loadServiceConfig } from '@effectively-once/service-kit';

export const DEFAULT_PORT = ${String(port)};

/**
 * @example
 * const config = load${names.pascal}Config(); // config.port, config.databaseUrl
 */
export function load${names.pascal}Config(env: NodeJS.ProcessEnv = process.env) {
  return loadServiceConfig({ service: '${names.kebab}', defaultPort: DEFAULT_PORT, env });
}

export type ${names.pascal}Config = ReturnType<typeof load${names.pascal}Config>;
`;
}

export function serviceConfigTest(input: ServiceTemplateInput): string {
  const { names, port } = input;
  return `import { describe, expect, it } from 'vitest';
import { load${names.pascal}Config } from './config.js';

const required = {
  DATABASE_URL: 'postgres://${names.snake}@127.0.0.1:5432/${names.snake}',
  EVENT_STORE_DATABASE_URL: 'postgres://${names.snake}@127.0.0.1:5432/event_store',
};

describe('the ${names.kebab} configuration', () => {
  it('given only the databases, when loaded, then its name and port ${String(port)}', () => {
    expect(load${names.pascal}Config(required)).toMatchObject({
      service: '${names.kebab}',
      port: ${String(port)},
      databaseUrl: required.DATABASE_URL,
    });
  });

  it('given no database, when loaded, then it refuses to start', () => {
    expect(() => load${names.pascal}Config({})).toThrow(/Invalid configuration of ${names.kebab}/);
  });
});
`;
}

export function serviceApp(input: ServiceTemplateInput): string {
  const { names } = input;
  return `${wrap('// ', `The ${names.kebab} service as a Fastify app built from its dependencies: health, readiness and metrics from the service kit; register its own routes here. server.ts wires the real dependencies, tests pass their own and call inject.`)}
import type { EventStore } from '@effectively-once/event-store';
import {
  createServiceApp,
  type FastifyZodInstance,
  type ServiceMetrics,
} from '@effectively-once/service-kit';
import type { Kysely } from 'kysely';
import type { ${names.pascal}Database } from './adapters/postgres/database.js';

export interface ${names.pascal}AppDeps {
  readonly db: Kysely<${names.pascal}Database>;
  readonly store: EventStore;
  readonly metrics: ServiceMetrics;
  readonly logLevel?: string;
  /** false in tests: no request logs. */
  readonly logger?: boolean;
}

/**
 * @example
 * const app = buildApp({ db, store, metrics, logger: false });
 * const response = await app.inject({ method: 'GET', url: '/health' });
 */
export function buildApp(deps: ${names.pascal}AppDeps): FastifyZodInstance {
  return createServiceApp({
    service: '${names.kebab}',
    db: deps.db,
    store: deps.store,
    metrics: deps.metrics,
    logLevel: deps.logLevel,
    logger: deps.logger,
  });
}
`;
}

export function serviceDatabase(input: ServiceTemplateInput): string {
  const { names } = input;
  return `import type { IdempotencyTables } from '@effectively-once/idempotency';
import type { OutboxTables } from '@effectively-once/outbox';

/** Every table of the ${names.kebab} database: its own, the markers and the outbox. */
export interface ${names.pascal}Database extends IdempotencyTables, OutboxTables {
}
`;
}

export function serviceMigrationsIndex(input: ServiceTemplateInput): string {
  const { names } = input;
  return `import type { Migrations } from '@effectively-once/postgres';

/** The service's own tables; combined with the marker and outbox tables next door. */
export const ${names.camel}Migrations: Migrations = {
};
`;
}

export function serviceCombinedMigrations(input: ServiceTemplateInput): string {
  const { names } = input;
  return `import { idempotencyMigrations } from '@effectively-once/idempotency';
import { outboxMigrations } from '@effectively-once/outbox';
import { combineMigrations, type Migrations } from '@effectively-once/postgres';
import { ${names.camel}Migrations } from './migrations/index.js';

/** Everything the ${names.kebab} database needs: markers, outbox, and the service's own tables. */
export const ${names.camel}DatabaseMigrations: Migrations = combineMigrations(
  idempotencyMigrations,
  outboxMigrations,
  ${names.camel}Migrations,
);
`;
}
