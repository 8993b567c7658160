// Every consumer group of the saga and the service that runs it: the groups
// whose parked messages the console lists, and the status the page shows.
import { CONSUMERS, type ConsumerName } from '@effectively-once/contracts';

export const CONSUMER_SERVICES: Readonly<Record<ConsumerName, string>> = Object.freeze({
  [CONSUMERS.orderSaga]: 'order',
  [CONSUMERS.inventoryReservation]: 'inventory',
  [CONSUMERS.inventoryDemand]: 'inventory',
  [CONSUMERS.paymentAuthorization]: 'payment',
  [CONSUMERS.notificationEmail]: 'notification',
});

export const CONSOLE_CONSUMERS: readonly ConsumerName[] = Object.values(CONSUMERS);

export function isConsumerName(name: string): name is ConsumerName {
  return (CONSOLE_CONSUMERS as readonly string[]).includes(name);
}
