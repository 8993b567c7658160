// The supervisor's one extension point (ADR 0037): what runs beside the stack
// without the supervisor knowing it by name. An extension may add ports and
// processes, change the processes' environment, open servers of its own beside
// them, hear what the processes report, and add to the state file, the ready
// message and the banner. main.ts calls each hook at its place in the start and
// the stop; without an extension the stack is the template's.
import type { PostgresServer } from '@effectively-once/postgres';
import type { StackPorts } from '@effectively-once/stack-protocol';
import type { DatabaseUrls, ProcessSpec, StackInput } from './stack.js';
import type { SupervisedPostgres } from './supervised-postgres.js';
import type { ProcessEvent, SupervisedProcess } from './supervised-process.js';

/** What an extension is told when it opens: the stack as it will run. */
export interface StackExtensionContext {
  readonly host: string;
  /** Every port of the stack, the extension's own included. */
  readonly ports: StackPorts;
  readonly databases: DatabaseUrls;
  /** What every process inherits unchanged (PATH, ADMIN_TOKEN, ...). */
  readonly inheritedEnv: Readonly<Record<string, string>>;
  readonly postgres: PostgresServer;
  /** The embedded server's crash restarts (supervised-postgres.ts); none for DATABASE_URL. */
  readonly supervisedPostgres: SupervisedPostgres | undefined;
  /** The supervisor's live list of processes: filled as they start. */
  readonly processes: readonly SupervisedProcess[];
  /** One line in the supervisor's log. */
  say(message: string): void;
}

/** Where the extension's ports come from: fixed ones, or free ones picked like the stack's. */
export interface ExtensionPortsContext {
  readonly mode: 'fixed' | 'auto';
  /** The stack's ports so far, replicas included. */
  readonly ports: StackPorts;
  /** A free port none of the stack's processes has. */
  pick(): Promise<number>;
}

/** An extension once open: it stays for the stack's life. */
export interface OpenedStackExtension {
  /** The stack's processes in start order, as the extension changes them (env, added processes). */
  processes?(specs: readonly ProcessSpec[], input: StackInput): ProcessSpec[];
  /** Fields added to the state file and the ready message, for the tools that know the extension. */
  readonly state?: Readonly<Record<string, unknown>>;
  /** Lines of the ready banner, after the stack's. */
  readonly banner?: readonly string[];
  /** Each IPC message of a process that is not the supervisor's own ("listening"). */
  onProcessMessage?(spec: ProcessSpec, message: unknown): void;
  /** Each start or death of a process or of the embedded server. */
  onProcessEvent?(event: ProcessEvent): void;
  /** Called as the stack starts stopping, before the processes; awaited last. */
  stopping?(): Promise<void>;
  /** Called once the processes are down, before PostgreSQL stops. */
  afterProcesses?(): Promise<void>;
}

/** Something the supervisor runs beside the stack, given to main.ts at its composition. */
export interface StackExtension {
  /** Lines printed before anything starts. */
  readonly notice?: readonly string[];
  /** Composition roots of the processes it adds: bundled with the stack's. */
  readonly entries?: readonly string[];
  /** Its own ports, by name, chosen once the stack's are. */
  ports?(context: ExtensionPortsContext): Promise<Readonly<Record<string, number>>>;
  /** Opens what it runs beside the processes; after the databases, before any process starts. */
  open(context: StackExtensionContext): Promise<OpenedStackExtension>;
}
