import type {
  MarkerMistake,
  ProbeContext,
  ProbePoint,
  ProcessingProbe,
} from '../probe/processing-probe.js';

/** One call of `reached`, as a test wants to compare it. */
export interface ProbeVisit {
  point: ProbePoint;
  consumer: string;
  messageId: string;
  attempt: number;
  /** Whether the point was reached inside an open transaction. */
  inTransaction: boolean;
}

export interface RecordingProbe extends ProcessingProbe {
  readonly visits: readonly ProbeVisit[];
}

export interface RecordingProbeOptions {
  /** The mistake to reproduce, by consumer name; others run the correct path. */
  mistakes?: Readonly<Record<string, MarkerMistake>>;
  /** Runs after the visit is recorded: hold at a barrier, throw, raise 40001 in `context.trx`. */
  onReached?: (point: ProbePoint, context: ProbeContext) => Promise<void>;
}

/**
 * A processing probe that records every point reached, in order: a stand-in
 * for the failure laboratory in tests of processOnce and of a service's handlers.
 *
 * @example
 * const probe = recordingProbe({ mistakes: { 'inventory-demand-v1': 'check-then-act' } });
 * await withProcessingProbe(probe, () => processOnce({ db, consumer, message, work }));
 * expect(probe.visits.map((v) => v.point)).toEqual(['before-claim']);
 */
export function recordingProbe(options: RecordingProbeOptions = {}): RecordingProbe {
  const visits: ProbeVisit[] = [];
  return {
    visits,
    markerMistake: (consumer) => options.mistakes?.[consumer],
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
