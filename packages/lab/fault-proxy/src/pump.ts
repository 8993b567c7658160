// One direction of one proxied connection: what the source sends is queued
// and forwarded to the destination as the link's faults allow. Bytes are never
// dropped: a held or slowed queue stops reading its source once it is full,
// so the sender feels TCP's own back-pressure, as on a congested network.
import type { Socket } from 'node:net';
import { nextChunkStep, type LinkFaults } from './link-faults.js';

/** Above this many queued bytes the source is paused; below the low mark it reads again. */
const HIGH_WATER_BYTES = 1 << 20;
const LOW_WATER_BYTES = 1 << 18;

/** What a pump asks of its link. */
export interface PumpLink {
  /** The link's wall clock, epoch ms: the faults' times are on it. */
  now(): number;
  faults(): LinkFaults;
  /** Resolves at `at` (epoch ms), or sooner when the link's faults change or it closes. */
  waitUntil(at: number): Promise<void>;
  /** Counts forwarded bytes. */
  forwarded(bytes: number): void;
}

interface Queued {
  data: Buffer;
  arrivedAt: number;
}

/**
 * Starts forwarding `source` to `destination`; ends the destination once the
 * source has ended and everything queued has gone through.
 */
export function pump(source: Socket, destination: Socket, link: PumpLink): void {
  const queue: Queued[] = [];
  let queuedBytes = 0;
  let ended = false;
  /** When the source's FIN came in: it goes on like a zero-length chunk, after everything before it. */
  let endedAt = 0;
  let running = false;

  const drained = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        destination.off('drain', done);
        destination.off('close', done);
        resolve();
      };
      destination.once('drain', done);
      destination.once('close', done);
    });

  async function forwardAll(): Promise<void> {
    for (let head = queue[0]; head !== undefined; head = queue[0]) {
      if (destination.destroyed) return;
      const now = link.now();
      const step = nextChunkStep({
        faults: link.faults(),
        now,
        arrivedAt: head.arrivedAt,
        length: head.data.length,
      });
      if (step.type === 'hold') await link.waitUntil(step.until);
      else if (step.type === 'wait') await link.waitUntil(step.at);
      else {
        const slice = head.data.subarray(0, step.bytes);
        if (step.bytes >= head.data.length) queue.shift();
        else head.data = head.data.subarray(step.bytes);
        queuedBytes -= slice.length;
        if (queuedBytes < LOW_WATER_BYTES && source.isPaused() && !source.destroyed)
          source.resume();
        link.forwarded(slice.length);
        if (!destination.write(slice)) await drained();
        if (step.pauseMs > 0) await link.waitUntil(link.now() + step.pauseMs);
      }
    }
    // The FIN is a packet too: a blackhole holds it (and latency delays it) even
    // with nothing queued, or the upstream would see a clean end while the
    // client's last bytes are still held, or before they were ever sent.
    while (ended && queue.length === 0 && !destination.destroyed && !destination.writableEnded) {
      const step = nextChunkStep({
        faults: link.faults(),
        now: link.now(),
        arrivedAt: endedAt,
        length: 0,
      });
      if (step.type === 'hold') await link.waitUntil(step.until);
      else if (step.type === 'wait') await link.waitUntil(step.at);
      else destination.end();
    }
  }

  function kick(): void {
    if (running) return;
    running = true;
    void forwardAll().finally(() => {
      running = false;
      // Data or the end may have come in while the last write finished.
      if (destination.destroyed) return;
      if (queue.length > 0 || (ended && !destination.writableEnded)) kick();
    });
  }

  source.on('data', (data: Buffer) => {
    queue.push({ data, arrivedAt: link.now() });
    queuedBytes += data.length;
    if (queuedBytes > HIGH_WATER_BYTES) source.pause();
    kick();
  });
  source.on('end', () => {
    ended = true;
    endedAt = link.now();
    kick();
  });
}
