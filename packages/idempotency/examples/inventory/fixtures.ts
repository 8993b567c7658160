// Test data for the inventory example: every call makes fresh ids, so tests
// share a database without seeing each other's rows.
import { randomUUID } from 'node:crypto';
import type { OrderLinePlaced } from './reserve-stock.js';

let skuCounter = 0;

export function newSku(): string {
  skuCounter += 1;
  return `sku-${String(skuCounter)}-${randomUUID().slice(0, 8)}`;
}

export function orderLinePlaced(line: Partial<OrderLinePlaced> & { sku: string }): OrderLinePlaced {
  return {
    id: randomUUID(),
    type: 'OrderPlaced',
    orderId: `order-${randomUUID()}`,
    quantity: 1,
    ...line,
  };
}
