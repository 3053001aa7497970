/**
 * Merchant metadata: the merchant's own key-value pairs on a session or a server-to-server charge (an order id, a
 * customer's internal number), returned on the object and carried in its events, as Stripe's metadata is. Never
 * interpreted by the service. Pure: no I/O.
 */

/** Limits, as documented in docs/api.md, "Metadata"; the zod schema (shared/schemas/common.ts) enforces them. */
export const METADATA_LIMITS = {
  keys: 20,
  keyLength: 40,
  valueLength: 500,
  /** UTF-8 bytes of all keys and values together: 20 full-size pairs of multi-byte text would be far more. */
  totalBytes: 8 * 1024,
} as const;

export type Metadata = Record<string, string>;

/** The metadata of an object stored before metadata existed reads as none. */
export const metadataOf = (holder: { metadata?: Metadata }): Metadata => holder.metadata ?? {};

/** UTF-8 size of all keys and values, the measure of METADATA_LIMITS.totalBytes. */
export function metadataBytes(metadata: Metadata): number {
  const utf8 = new TextEncoder();
  return Object.entries(metadata).reduce((sum, [key, value]) => sum + utf8.encode(key).length + utf8.encode(value).length, 0);
}
