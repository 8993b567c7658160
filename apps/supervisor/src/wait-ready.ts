// Readiness by asking, not by sleeping: a process is ready when its /ready
// answers 200 (its database and event store are reachable, its consumers
// subscribed). Asked every 25 ms once the process said it listens, since
// every 100 ms of polling was up to 100 ms more on each start. Before that
// word, every 250 ms: a refused connection is not free, its error's stack is
// formatted through the source maps, and eight processes asked for every 25 ms
// took the supervisor about 0.7 s of CPU on a start that is CPU-bound.

const LISTENING_INTERVAL_MS = 25;
const UNHEARD_INTERVAL_MS = 250;

/**
 * Polls `url` until it answers 200, or throws after `timeoutMs` with the last
 * answer or error, so a start that hangs says where. `listening` resolves
 * when the process says its server listens (ProcessListeningMessage); until
 * then it asks seldom. Without it, it asks at the quick pace from the start.
 *
 * @example
 * await waitUntilReady({ name: 'order', url: 'http://127.0.0.1:3001/ready', timeoutMs: 30_000, listening });
 */
export async function waitUntilReady(input: {
  name: string;
  url: string;
  timeoutMs: number;
  listening?: Promise<void> | undefined;
  intervalMs?: number;
  /** The pause before the word that it listens (default 250 ms). */
  unheardIntervalMs?: number;
}): Promise<void> {
  const deadline = Date.now() + input.timeoutMs;
  const quick = input.intervalMs ?? LISTENING_INTERVAL_MS;
  let heard = input.listening === undefined;
  const listening = input.listening?.then(() => {
    heard = true;
  });
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    try {
      const response = await fetch(input.url, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
      last = `HTTP ${String(response.status)}: ${(await response.text()).slice(0, 300)}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    const pause = new Promise((resolve) =>
      setTimeout(resolve, heard ? quick : (input.unheardIntervalMs ?? UNHEARD_INTERVAL_MS)),
    );
    // The word that it listens ends a long pause at once.
    await (heard || listening === undefined ? pause : Promise.race([pause, listening]));
  }
  throw new Error(
    `${input.name} was not ready at ${input.url} within ${String(input.timeoutMs)} ms (${last}).`,
  );
}
