// A process that waits for SIGTERM/SIGINT with onShutdownSignal, for
// shutdown.int.spec.ts. argv[2] says how its close behaves: ok, fail or hang.
import { createHttpServer } from '../http/create-http-server.js';
import { onShutdownSignal } from '../shutdown.js';

const mode = process.argv[2] ?? 'ok';
const { log } = createHttpServer({ service: 'shutdown-test', logLevel: 'info' });
let closes = 0;

onShutdownSignal({
  log,
  timeoutMs: 300,
  close: async () => {
    closes++;
    log.info({ closes }, 'closing');
    if (mode === 'fail') throw new Error('the pool would not end');
    if (mode === 'hang') await new Promise<never>(() => undefined);
  },
});
// Keeps the process alive until a signal arrives.
setInterval(() => undefined, 60_000);
log.info('waiting for a signal');
