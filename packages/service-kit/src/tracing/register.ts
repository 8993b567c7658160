// Loaded with `node --import` before a process's own modules (the supervisor
// passes it to every child, bundled or through tsx; docs/adr/0033): an
// instrumentation can only wrap a module it sees being loaded. The ESM loader
// hook of import-in-the-middle shows it `pg`, which the bundles import as an
// ES module; node:http comes through `require` and is seen without it.
// Without an exporter configured (config.ts) it does nothing and loads nothing.
import { register } from 'node:module';
import { tracingEnabled } from './config.js';

if (tracingEnabled()) {
  const { createAddHookMessageChannel } = await import('import-in-the-middle');
  // Only the modules an instrumentation asks for are wrapped, not every import.
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);
  const { startTracing } = await import('./start-tracing.js');
  startTracing();
  await waitForAllMessagesAcknowledged();
}
