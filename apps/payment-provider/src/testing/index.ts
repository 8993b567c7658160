// What another app's tests may use to run this fake card processor for real
// (see the app boundaries in eslint.config.js): the app, its schema, its tables.
export { providerMigrations } from '../adapters/postgres/migrations/index.js';
export type { ProviderDatabase } from '../adapters/postgres/provider.database.js';
export { buildApp } from '../app.js';
