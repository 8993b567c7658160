// The opaque `cursor` of GET /orders: the listing key of a page's last order,
// as base64url JSON. Opaque, so the keyset behind it can change without
// breaking clients; checked with zod, because a client hands it back.
import { OrderId } from '@effectively-once/contracts';
import { z } from 'zod';

/**
 * Where a page ended. `createdAt` is the order's placement time: the key row's
 * time, which OrderPlaced carries as placedAt, so cursors made before the
 * order-summary projection still point at the same place.
 */
export interface OrderListingKey {
  readonly createdAt: Date;
  readonly orderId: string;
}

const CursorSchema = z.object({ createdAt: z.iso.datetime(), orderId: OrderId });

export function encodeCursor(key: OrderListingKey): string {
  const json = JSON.stringify({ createdAt: key.createdAt.toISOString(), orderId: key.orderId });
  return Buffer.from(json).toString('base64url');
}

/** The listing key in a cursor, or undefined when the text is not a cursor this service made. */
export function decodeCursor(cursor: string): OrderListingKey | undefined {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = CursorSchema.safeParse(json);
  if (!parsed.success) return undefined;
  return { createdAt: new Date(parsed.data.createdAt), orderId: parsed.data.orderId };
}
