import type { KnownEvent } from '@effectively-once/contracts';
import type { RecordedEvent } from '@effectively-once/event-store';
import type { ProcessResult } from '@effectively-once/idempotency';

/** What a handler returns: processOnce's result, or `ignored` for a type it does not handle. */
export type HandleResult = ProcessResult<unknown> | { outcome: 'ignored' };

export type ConsumerHandler = (event: KnownEvent, recorded: RecordedEvent) => Promise<HandleResult>;
