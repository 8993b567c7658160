import type { AttemptStrategy } from '../attempt-once.js';
import type { ProcessingPoint } from '../hooks/points.js';
import type { PointContext, ProcessingHooks } from '../hooks/processing-hooks.js';

/** One call of `reached`, as a test wants to compare it. */
export interface HookVisit {
  point: ProcessingPoint;
  consumer: string;
  messageId: string;
  attempt: number;
  /** Whether the point was reached inside an open transaction. */
  inTransaction: boolean;
}

export interface RecordingHooks extends ProcessingHooks {
  readonly visits: readonly HookVisit[];
}

export interface RecordingHooksOptions {
  /** The attempt flow to run, by consumer name; others run the correct path. */
  flows?: Readonly<Record<string, AttemptStrategy>>;
  /** Runs after the visit is recorded: hold at a barrier, throw, raise 40001 in `context.trx`. */
  onReached?: (point: ProcessingPoint, context: PointContext) => Promise<void>;
}

/**
 * Processing hooks that record every point reached, in order, and may hold or
 * fail there: for tests of processOnce and of a service's handlers.
 *
 * @example
 * const hooks = recordingHooks();
 * await withProcessingHooks(hooks, () => processOnce({ db, consumer, message, work }));
 * expect(hooks.visits.map((v) => v.point)).toEqual(['before-claim', 'after-claim', 'after-business']);
 */
export function recordingHooks(options: RecordingHooksOptions = {}): RecordingHooks {
  const visits: HookVisit[] = [];
  return {
    visits,
    attemptFor: (consumer) => options.flows?.[consumer],
    reached: async (point, context) => {
      const { consumer, message, attempt, trx } = context;
      visits.push({
        point,
        consumer,
        messageId: message.id,
        attempt,
        inTransaction: trx !== undefined,
      });
      await options.onReached?.(point, context);
    },
  };
}
