import plugin from './index.js';
import { ruleTester } from './rule-tester.js';

const rule = plugin.rules['no-event-store-append'];

// Must pass: a consumer tells the world through the outbox, in its transaction.
const enqueueInTheTransaction = `
await processOnce({
  db,
  consumer,
  message,
  work: async (trx) => {
    await saveReservation(trx, reservation);
    await enqueueEvents(trx, [outgoingEvent({ streamName, event, causedBy: recorded })]);
  },
});`;

// Must fail: the same consumer appending to the store itself, a dual write.
const appendBesideTheTransaction = `
await processOnce({ db, consumer, message, work: (trx) => saveReservation(trx, reservation) });
await store.appendToStream(inventoryStream(sku), [event], { expectedRevision: 'any' });`;

ruleTester.run('no-event-store-append', rule, {
  valid: [
    { name: 'events leave through the outbox', code: enqueueInTheTransaction },
    {
      name: 'a plain function named appendToStream is not an event store',
      code: 'appendToStream(rows);',
    },
  ],
  invalid: [
    {
      name: 'a consumer appends to the store beside its transaction',
      code: appendBesideTheTransaction,
      errors: [{ messageId: 'appendOutsideAllowed', data: { method: 'appendToStream' } }],
    },
    {
      name: 'several streams appended at once, beside the transaction',
      code: "await store.appendToStreams([{ streamName, events: [event], expectedRevision: 'any' }]);",
      errors: [{ messageId: 'appendOutsideAllowed', data: { method: 'appendToStreams' } }],
    },
    {
      name: 'an append through optional chaining, under an extra method name',
      code: "await deps.store?.['appendEvents'](stream, events);",
      options: [{ methods: ['appendToStream', 'appendEvents'] }],
      errors: [{ messageId: 'appendOutsideAllowed', data: { method: 'appendEvents' } }],
    },
  ],
});
