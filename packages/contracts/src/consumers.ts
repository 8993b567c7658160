// Every consumer's name, which is also its persistent subscription group.
// A name is part of the idempotency key (processed_message.consumer_name):
// renaming a consumer makes it see every message as new, so a change of
// meaning gets a new version suffix instead of an edit.

export const CONSUMERS = Object.freeze({
  inventoryReservation: 'inventory-reservation-v1',
  /** Tallies ordered units per SKU; guarded by its marker alone (no business key). */
  inventoryDemand: 'inventory-demand-v1',
  paymentAuthorization: 'payment-authorization-v1',
  orderSaga: 'order-saga-v1',
  notificationEmail: 'notification-email-v1',
});

export type ConsumerName = (typeof CONSUMERS)[keyof typeof CONSUMERS];
