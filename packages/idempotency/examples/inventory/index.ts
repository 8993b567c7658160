// The pattern's running example: stock, reservations, and the consumer that
// reserves stock for an OrderPlaced line. Tests, the benchmark and the failure
// timeline all use it.
export { newSku, orderLinePlaced } from './fixtures.js';
export type { Inventory, InventoryDatabase, NewInventory } from './inventory.tables.js';
export { inventoryMigrations } from './migrations.js';
export {
  inventoryReservation,
  reserveStock,
  restock,
  stockOf,
  type OrderLinePlaced,
  type ReservationResult,
} from './reserve-stock.js';
