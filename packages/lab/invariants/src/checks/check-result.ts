// What every check shares: how a status follows from its findings, how old is
// "still on its way", and how an age reads.
import type { InvariantCheck } from '../audit.types.js';
import type { ResolvedScope } from './scope.js';

/** What every check is judged against. */
export interface CheckContext {
  readonly scope: ResolvedScope;
  readonly now: Date;
  /** An effect younger than this may still be on its way. */
  readonly settleMs: number;
}

/**
 * Broken when anything is violated, else pending when anything is settling,
 * else held.
 *
 * @example
 * return finishCheck({ name, title, summary, violations, pending: [] });
 */
export function finishCheck(check: Omit<InvariantCheck, 'status'>): InvariantCheck {
  const { name, title, summary, violations, pending } = check;
  const status = violations.length > 0 ? 'broken' : pending.length > 0 ? 'pending' : 'held';
  return { name, title, status, summary, violations, pending };
}

/** True while something that happened at `at` may still have effects on their way. */
export function isSettling(at: Date, context: CheckContext): boolean {
  return context.now.getTime() - at.getTime() < context.settleMs;
}

/**
 * @example
 * formatAge(1_250) // '1.3 s'
 */
export function formatAge(ms: number): string {
  const clamped = Math.max(0, ms);
  if (clamped < 60_000) return `${(clamped / 1000).toFixed(1)} s`;
  if (clamped < 3_600_000) return `${(clamped / 60_000).toFixed(1)} min`;
  return `${(clamped / 3_600_000).toFixed(1)} h`;
}

/** How long ago `at` was, in words. */
export function ageOf(at: Date, context: CheckContext): string {
  return formatAge(context.now.getTime() - at.getTime());
}

/** "1 marker", "3 markers". */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${String(n)} ${n === 1 ? noun : plural}`;
}
