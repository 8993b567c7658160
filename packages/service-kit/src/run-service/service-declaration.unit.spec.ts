// The outbox is declarable only on a database whose type has the outbox
// tables. The compiler checks these lines (tsc runs in pnpm test): the
// expected error below turns into a failure the day such a declaration compiles.
import type { IdempotencyTables } from '@effectively-once/idempotency';
import type { OutboxTables } from '@effectively-once/outbox';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { OutboxDeclaration, ServiceDeclaration } from './service-declaration.js';

type WithOutbox = IdempotencyTables & OutboxTables;
type WithoutOutbox = IdempotencyTables;

describe('OutboxDeclaration', () => {
  it('given a database type with the outbox tables, then an outbox with a relay is declarable', () => {
    expectTypeOf<OutboxDeclaration<WithOutbox>>().toEqualTypeOf<{ relay: boolean }>();
    const outbox: ServiceDeclaration<WithOutbox>['outbox'] = { relay: true };
    expect(outbox).toEqual({ relay: true });
  });

  it('given a database type without them, then no outbox is declarable', () => {
    expectTypeOf<OutboxDeclaration<WithoutOutbox>>().toBeNever();
    // @ts-expect-error: the relay would read an outbox table this database never had.
    const outbox: ServiceDeclaration<WithoutOutbox>['outbox'] = { relay: true };
    expect(outbox).toEqual({ relay: true });
    const none: ServiceDeclaration<WithoutOutbox>['outbox'] = undefined;
    expect(none).toBeUndefined();
  });
});
