// The handler of a scaffolded consumer: processOnce claims the message and
// runs the work (business row, and the outbox row when it emits) in one
// transaction.
import type { ConsumerNames } from '../names.js';
import type { DatabaseRef } from './consumer-table.js';
import { wrap } from './wrap.js';

export interface ConsumerTemplateInput {
  readonly names: ConsumerNames;
  /** The event type it consumes, e.g. `OrderConfirmed`. */
  readonly on: string;
  /** The event type it publishes through the outbox, if any. */
  readonly emit?: string | undefined;
  readonly database: DatabaseRef;
}

function emitParts(input: ConsumerTemplateInput) {
  const { names, emit } = input;
  if (emit === undefined) {
    return { imports: '', stream: '', write: '', doc: '' };
  }
  return {
    imports: `import { enqueueEvents } from '@effectively-once/outbox';\n`,
    stream: `
/**
${wrap(' * ', `The stream ${emit} is published to. No consumer reads ${emit} yet: before one does, declare it in packages/contracts (docs/scaffolder.md).`)}
 */
export const ${names.camel}Stream = (orderId: string): string => \`${names.kebab}-\${orderId}\`;
`,
    write: `
  // Written in the same transaction: published if and only if the row commits.
  await enqueueEvents(trx, [
    {
      streamName: ${names.camel}Stream(event.data.orderId),
      type: '${emit}',
      data: { orderId: event.data.orderId },
      metadata: { correlationId: event.data.orderId, causationId: messageId },
    },
  ]);`,
    doc: ` and enqueues ${emit}`,
  };
}

export function consumerHandler(input: ConsumerTemplateInput): string {
  const { names, on, database } = input;
  const emit = emitParts(input);
  const eventsConst = `${names.snake.toUpperCase()}_EVENTS`;
  const header = wrap(
    '// ',
    `${names.consumer}: on ${on}, writes one ${names.snake} row per order${emit.doc}. Scaffolded by \`pnpm new consumer\`: replace the effect with yours and keep its shape. Everything it writes goes through the transaction processOnce gives it, so the marker and the effect commit together or not at all.`,
  );
  return `${header}
import type { KnownEvent, KnownEventType } from '@effectively-once/contracts';
import type { RecordedEvent } from '@effectively-once/event-store';
import {
  defineConsumer,
  processOnce,
  type OutcomeListener,
  type ProcessResult,
} from '@effectively-once/idempotency';
${emit.imports}import type { Kysely, Transaction } from 'kysely';
import type { ${database.type} } from '../adapters/postgres/${database.module}';
import { insert${names.pascal} } from '../adapters/postgres/${names.kebab}.repository.js';

export const ${names.camel} = defineConsumer({
  name: '${names.consumer}',
  // A second row for the same order is the same fact under another message id.
  businessKeys: ['${names.snake}_pkey'],
});

/** The events this consumer acts on: its subscription group receives only these. */
export const ${eventsConst} = ['${on}'] as const satisfies readonly KnownEventType[];

export type ${names.pascal}Event = Extract<KnownEvent, { type: '${on}' }>;
${emit.stream}
export interface ${names.pascal}Deps {
  readonly db: Kysely<${database.type}>;
  readonly onOutcome?: OutcomeListener;
}

/** \`recorded\`: the order's row was written. */
export type ${names.pascal}Result = ProcessResult<'recorded'> | { outcome: 'ignored' };

/**
 * The work, inside the claiming transaction. Exported for the test kit, which
 * runs it through processOnce itself.
 */
export async function apply${names.pascal}(
  trx: Transaction<${database.type}>,
  event: ${names.pascal}Event,
  messageId: string,
): Promise<'recorded'> {
  await insert${names.pascal}(trx, { orderId: event.data.orderId, messageId });${emit.write}
  return 'recorded';
}

/**
${wrap(' * ', `Applies one ${on} once per message id and once per order. Any other event is acknowledged as \`ignored\`, without a transaction.`)}
 *
 * @example
 * const result = await handle${names.pascal}({ db }, parseEvent(recorded), recorded);
 */
export async function handle${names.pascal}(
  deps: ${names.pascal}Deps,
  event: KnownEvent,
  recorded: RecordedEvent,
): Promise<${names.pascal}Result> {
  if (event.type !== '${on}') return { outcome: 'ignored' };
  return processOnce({
    db: deps.db,
    consumer: ${names.camel},
    message: { id: recorded.id, type: recorded.type },
    work: (trx) => apply${names.pascal}(trx, event, recorded.id),
    ...(deps.onOutcome === undefined ? {} : { onOutcome: deps.onOutcome }),
  });
}
`;
}
