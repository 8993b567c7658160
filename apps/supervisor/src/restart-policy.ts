// How a supervisor restarts a process that died, as an orchestrator would:
// after a short pause the first time, then with growing pauses while it keeps
// dying, and with the short pause again once it stayed up for a while.

export interface RestartPolicy {
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  /** A process that ran this long before dying counts as healthy: its next restart waits only `initialDelayMs`. */
  readonly stableAfterMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = Object.freeze({
  initialDelayMs: 250,
  maxDelayMs: 10_000,
  stableAfterMs: 30_000,
});

/**
 * The pause before the next start, given how many times in a row the process
 * died quickly, this death included (0 when it died after a stable run).
 *
 * @example
 * restartDelayMs(DEFAULT_RESTART_POLICY, 1); // 250
 * restartDelayMs(DEFAULT_RESTART_POLICY, 4); // 2000
 */
export function restartDelayMs(policy: RestartPolicy, quickDeaths: number): number {
  return Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** Math.max(0, quickDeaths - 1));
}

/** The new count of quick deaths after a run of `uptimeMs`. */
export function nextQuickDeaths(
  policy: RestartPolicy,
  quickDeaths: number,
  uptimeMs: number,
): number {
  return uptimeMs >= policy.stableAfterMs ? 0 : quickDeaths + 1;
}
