// One helper per stream name, so no service spells another's stream by hand.
// Each consumer group filters by these prefixes.

export const STREAM_PREFIX = Object.freeze({
  order: 'order-',
  inventory: 'inventory-',
  payment: 'payment-',
  notification: 'notification-',
});

export const orderStream = (orderId: string): string => `${STREAM_PREFIX.order}${orderId}`;
export const inventoryStream = (orderId: string): string => `${STREAM_PREFIX.inventory}${orderId}`;
export const paymentStream = (orderId: string): string => `${STREAM_PREFIX.payment}${orderId}`;
export const notificationStream = (orderId: string): string =>
  `${STREAM_PREFIX.notification}${orderId}`;
