/**
 * FNV-1a, 32 bits: the same number for a text in every process (a stream's
 * wake choice, a long event type's channel).
 *
 * @example
 * fnv1a32('order-42'); // a number below 2 ** 32, the same everywhere
 */
export function fnv1a32(text: string): number {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value;
}
