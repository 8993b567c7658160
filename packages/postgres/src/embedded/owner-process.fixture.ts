// A process that starts an embedded server, reports where it lives, then waits
// to be killed. The guardian test kills it the hard way.
import { startEmbeddedPostgres } from './start-embedded-postgres.js';

const server = await startEmbeddedPostgres({ durability: 'fast-for-tests' });
process.stdout.write(`${JSON.stringify({ url: server.url, directory: server.directory })}\n`);
setInterval(() => undefined, 60_000);
