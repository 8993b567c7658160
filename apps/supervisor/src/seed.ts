// Demo stock, so a fresh `pnpm start` can take orders at once. Seeding goes
// through the inventory service's public API, like any other client, and only
// creates SKUs that do not exist yet: a restart does not double the stock.
// Each SKU's restock has a fixed Idempotency-Key, so two supervisors seeding
// one database at once (both saw the SKU missing) still add its stock once.

export const DEMO_STOCK = Object.freeze([
  { sku: 'SKU-RED-MUG', quantity: 100 },
  { sku: 'SKU-BLUE-MUG', quantity: 100 },
  { sku: 'SKU-TEAPOT', quantity: 25 },
  { sku: 'SKU-LIMITED-PRINT', quantity: 3 },
]);

/** The Idempotency-Key of a SKU's seed: the same on every start. */
const seedKey = (sku: string): string => `seed:${sku}`;

/**
 * Restocks each demo SKU that the inventory service does not know yet.
 *
 * @example
 * await seedInventory({ inventoryUrl: 'http://127.0.0.1:3002' });
 */
export async function seedInventory(input: {
  inventoryUrl: string;
  stock?: readonly { sku: string; quantity: number }[];
}): Promise<void> {
  for (const { sku, quantity } of input.stock ?? DEMO_STOCK) {
    const found = await fetch(`${input.inventoryUrl}/inventory/${sku}`);
    if (found.status === 200) continue;
    if (found.status !== 404) {
      throw new Error(`Seeding ${sku}: inventory answered ${String(found.status)}`);
    }
    const restocked = await fetch(`${input.inventoryUrl}/inventory/${sku}/restock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': seedKey(sku) },
      body: JSON.stringify({ quantity }),
    });
    if (!restocked.ok) {
      throw new Error(
        `Seeding ${sku}: restock answered ${String(restocked.status)} ${await restocked.text()}`,
      );
    }
  }
}
