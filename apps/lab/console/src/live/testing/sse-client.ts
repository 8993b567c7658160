// A test's EventSource: fetch a stream and hand out its messages as they
// arrive, each block parsed by the SSE rules this console uses.
export interface SseBlock {
  id: string | undefined;
  /** `message` unless the block names another event. */
  event: string;
  data: string | undefined;
  retry: number | undefined;
  comments: string[];
}

export function parseSseBlock(block: string): SseBlock {
  const parsed: SseBlock = {
    id: undefined,
    event: 'message',
    data: undefined,
    retry: undefined,
    comments: [],
  };
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) {
      parsed.comments.push(line.slice(1).trim());
      continue;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') parsed.id = value;
    else if (field === 'event') parsed.event = value;
    else if (field === 'data')
      parsed.data = parsed.data === undefined ? value : `${parsed.data}\n${value}`;
    else if (field === 'retry') parsed.retry = Number(value);
  }
  return parsed;
}

async function* blocksOf(body: ReadableStream<Uint8Array>): AsyncGenerator<SseBlock> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      yield parseSseBlock(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
    }
  }
}

/**
 * @example
 * const stream = await openSseStream(`${baseUrl}/api/console/events?orderId=${orderId}`);
 * await stream.until((block) => block.event === 'caught-up');
 * stream.close();
 */
export async function openSseStream(url: string) {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream' },
    signal: controller.signal,
  });
  const { body } = response;
  if (body === null) throw new Error(`No body from ${url}`);
  const blocks: SseBlock[] = [];
  let cursor = 0;
  let ended = false;
  let wake: (() => void) | undefined;
  const pumped = (async () => {
    try {
      for await (const block of blocksOf(body)) {
        blocks.push(block);
        wake?.();
      }
    } catch {
      // Aborted by close(), or the connection was cut: either way the stream ended.
    } finally {
      ended = true;
      wake?.();
    }
  })();

  const next = async (deadline: number): Promise<SseBlock> => {
    while (cursor >= blocks.length) {
      if (ended) throw new Error(`The stream ended after ${String(blocks.length)} blocks.`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`Timed out waiting for a block of ${url}.`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
    const block = blocks[cursor];
    cursor += 1;
    if (block === undefined) throw new Error('unreachable: the block was counted');
    return block;
  };

  return {
    response,
    /** Every block received so far. */
    blocks,
    /** Reads on until a block matches, and returns it; fails when the stream ends or after `timeoutMs`. */
    async until(matches: (block: SseBlock) => boolean, timeoutMs = 10_000): Promise<SseBlock> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const block = await next(deadline);
        if (matches(block)) return block;
      }
    },
    /** Resolves when the server ended the stream (or close() aborted it). */
    ended: pumped,
    close(): void {
      controller.abort();
    },
  };
}
