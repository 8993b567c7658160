/** Where a target's log ends after an append; only the target that made it understands it. */
export type Checkpoint = unknown;

/** The work the benchmark asks of an event store, so both stores do exactly the same. */
export interface BenchTarget {
  readonly name: string;
  /** Appends events `{ n }` to a new stream (expected: no stream); returns the last one's checkpoint. */
  append(stream: string, ns: readonly number[]): Promise<Checkpoint>;
  /**
   * Starts a subscriber that calls `onEvent(n)` for each event after
   * `after` (or from now on, without it), settling it the store's way.
   */
  subscribe(options: {
    after?: Checkpoint;
    onEvent: (n: number) => void;
  }): Promise<{ stop(): Promise<void> }>;
  close(): Promise<void>;
}
