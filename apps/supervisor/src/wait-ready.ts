// Readiness by asking, not by sleeping: a process is ready when its /ready
// answers 200 (its database and event store are reachable, its consumers
// subscribed). Asked every 25 ms: a refused connection costs next to nothing,
// and every 100 ms of polling was up to 100 ms more on each start.

/**
 * Polls `url` until it answers 200, or throws after `timeoutMs` with the last
 * answer or error, so a start that hangs says where.
 *
 * @example
 * await waitUntilReady({ name: 'order', url: 'http://127.0.0.1:3001/ready', timeoutMs: 30_000 });
 */
export async function waitUntilReady(input: {
  name: string;
  url: string;
  timeoutMs: number;
  intervalMs?: number;
}): Promise<void> {
  const deadline = Date.now() + input.timeoutMs;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    try {
      const response = await fetch(input.url, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
      last = `HTTP ${String(response.status)}: ${(await response.text()).slice(0, 300)}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, input.intervalMs ?? 25));
  }
  throw new Error(
    `${input.name} was not ready at ${input.url} within ${String(input.timeoutMs)} ms (${last}).`,
  );
}
