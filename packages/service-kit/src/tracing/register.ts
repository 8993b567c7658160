// Loaded with `node --import` before a process's own modules (the supervisor
// passes it to every child, bundled or through tsx; docs/adr/0033, 0046): an
// instrumentation can only wrap a module it sees being loaded, and it sees
// them all through `require`. `pg` is an ES module wrapper around CommonJS
// files: its `lib/client.js`, required by its `lib/index.js`, is the file the
// pg instrumentation patches. node:http comes through the `require` of the
// CommonJS code that uses it, and fetch reports through diagnostics channels.
// So no ES module loader hook: none of the hook thread each start waited for.
// Without an exporter configured (config.ts) it does nothing and loads nothing.
import { tracingEnabled } from './config.js';

if (tracingEnabled()) {
  const { startTracing } = await import('./start-tracing.js');
  startTracing();
}
