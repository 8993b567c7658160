// The failure lab's one vocabulary: every place a fault can be armed, in the
// order a message passes them, and what an armed fault does there. The lab and
// the tools that drive it speak these names; the services know none of them:
// the points in their own code are the named steps they report anyway
// (service-kit's StepReporter), which the lab hears (SERVICE_FAULT_POINTS).

export const FAULT_POINTS = [
  /** service-kit, before the handler runs (no transaction). */
  'on-delivery',
  /** processOnce, in the transaction, before the marker INSERT. */
  'before-claim',
  /** processOnce, in the transaction, right after the marker INSERT won. */
  'after-claim',
  /** processOnce, in the transaction, after the business change, before COMMIT. */
  'after-business',
  /** service-kit, after the handler resolved (committed), before the ack. */
  'after-commit-before-ack',
  /** payment, after the provider answered authorized, before the result is recorded. */
  'after-provider-authorized',
  /** payment, after the provider captured, before the capture is recorded. */
  'after-provider-captured',
  /** notification, after SMTP accepted the email, before it is recorded as sent. */
  'after-email-sent',
  /** outbox relay, after the store accepted the append, before the row is marked sent. */
  'after-relay-append',
] as const;
export type FaultPoint = (typeof FAULT_POINTS)[number];

/**
 * - `crash`: SIGKILL the process at the point (the supervisor restarts it).
 * - `hold`: park the call there until released, then continue or fail.
 * - `serialization-failure`: raise SQLSTATE 40001 in the open transaction.
 * - `fail`: throw a retryable failure with the fault's reason.
 * - `postpone`: at on-delivery, hand the delivery back unprocessed.
 * - `redeliver`: at after-commit-before-ack, hand it back instead of acking.
 */
export const FAULT_ACTIONS = [
  'crash',
  'hold',
  'serialization-failure',
  'fail',
  'postpone',
  'redeliver',
] as const;
export type FaultAction = (typeof FAULT_ACTIONS)[number];

/**
 * What an armed fault is matched against; a fault fires where every fact it
 * names is equal. `orderId` is the event's correlation id.
 */
export interface FaultFacts {
  consumer?: string | undefined;
  eventType?: string | undefined;
  orderId?: string | undefined;
  messageId?: string | undefined;
}

/**
 * The points a service reaches in its own code rather than in the consumer
 * loop or processOnce, by the step the service reports there.
 */
export const SERVICE_FAULT_POINTS = {
  'provider-authorized': 'after-provider-authorized',
  'provider-captured': 'after-provider-captured',
  'email-sent': 'after-email-sent',
  'relay-appended': 'after-relay-append',
} as const satisfies Readonly<Record<string, FaultPoint>>;
export type ServiceStep = keyof typeof SERVICE_FAULT_POINTS;
export type ServiceFaultPoint = (typeof SERVICE_FAULT_POINTS)[ServiceStep];

/** Whether a reported step is one the lab has a fault point at. */
export const isServiceStep = (step: string): step is ServiceStep =>
  Object.hasOwn(SERVICE_FAULT_POINTS, step);
