// What a scenario is: a name, what it shows, and a script run against a lab
// stack through a context that records every step, waits for named facts in
// the journals (never for a fixed time), and collects expectations. The
// verdict is the invariant auditor's, scoped to what the scenario touched,
// plus the scenario's own expectations.
import type { EventStore } from '@effectively-once/event-store';
import type { JournalEntry, Mistake } from '@effectively-once/fault-injection';
import type { InvariantName } from './verdict.js';
import type { ApiClient, PlaceOrderInput } from './clients/api-client.js';
import type { LabClient } from './clients/lab-client.js';
import type { LabStack } from './stack/lab-stack.js';

export interface ScenarioContext {
  readonly stack: LabStack;
  readonly api: ApiClient;
  readonly lab: LabClient;
  /** A SKU nobody else uses, restocked with `quantity`: scenarios never share stock. */
  freshSku(quantity: number): Promise<string>;
  /** Places an order of one line and adds it to the scenario's scope. */
  placeOrder(input: PlaceOrderInput): Promise<string>;
  /** Polls the order through the API until its status is one of `statuses`. */
  waitForOrder(orderId: string, statuses: readonly string[], timeoutMs?: number): Promise<void>;
  /** Waits for a journal entry (written since the scenario began) that `match` accepts. */
  waitForJournal(
    what: string,
    match: (entry: JournalEntry) => boolean,
    timeoutMs?: number,
  ): Promise<JournalEntry>;
  /** Polls `probe` until it returns a value; fails the script after `timeoutMs`. */
  waitUntil<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs?: number): Promise<T>;
  /** The stack's event store, opened for this call; close it after use. */
  openStore(): Promise<EventStore>;
  /** Every journal entry written since the scenario began. */
  journal(): Promise<JournalEntry[]>;
  /** A line in the timeline, in the runner's words. */
  step(text: string): void;
  /** A fact the scenario asserts about its own story (besides the invariants). */
  expect(description: string, held: boolean, detail?: string): void;
  /** The order ids placed so far. */
  readonly orderIds: readonly string[];
}

export interface Scenario {
  readonly name: string;
  readonly title: string;
  /** What happens and what should hold, in two or three sentences. */
  readonly summary: string;
  /**
   * Settings the scenario is written for (short saga deadlines, say). It always
   * runs on a stack started with them: `pnpm scenario` starts one for it, under
   * `--all` and beside a running stack too, and so does its e2e run.
   */
  readonly stackEnv?: Readonly<Record<string, string>>;
  /**
   * Takes infrastructure away under the whole stack (PostgreSQL sessions or
   * the server itself, a process the supervisor runs) for seconds to a
   * minute: never run among the other scenarios on a shared stack (`pnpm
   * scenario` starts one for it when the run holds others). Its e2e run starts
   * a stack of its own (e2e/lab/scenarios/infrastructure-faults.e2e.spec.ts).
   */
  readonly infrastructure?: true;
  run(context: ScenarioContext): Promise<void>;
}

/** A common mistake switched on for a scenario that then must break an invariant. */
export interface MistakeDemonstration {
  readonly name: string;
  readonly mistake: Mistake;
  readonly scenario: string;
  /** The consumers the switch is set on (service and consumer name). */
  readonly switches: readonly { service: 'inventory' | 'inventory-2'; consumer: string }[];
  /** The invariant the mistake breaks in that scenario. */
  readonly breaks: InvariantName;
  readonly summary: string;
}
