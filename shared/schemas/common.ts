import * as z from 'zod';
import { METADATA_LIMITS, metadataBytes } from '../domain/metadata.ts';

/** Largest `limit` of a cursor list (docs/api.md, "Lists"). */
export const MAX_LIST_LIMIT = 100;

/** The query of a cursor list: `limit` (1-100, default 10) and `startingAfter` (an id of the list, e.g. the last nextCursor). */
export const cursorListQuery = (idPattern: RegExp, what: string) => ({
  limit: queryInt(1, MAX_LIST_LIMIT, 10),
  startingAfter: z.string().regex(idPattern, { error: `must be ${what}` }).optional().meta({ description: 'The nextCursor of the previous page.' }),
});

/** Query-string integer: digits only, so "1e3", " 2" or "0x10" are refused instead of coerced. */
export const queryInt = (min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, { error: 'must be a whole number' })
    .transform(Number)
    .pipe(z.int().min(min).max(max))
    .optional()
    .transform((v) => v ?? fallback);

export const IdempotencyKeySchema = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[\x21-\x7E]+$/, { error: 'must be 1 to 255 printable ASCII characters without spaces' });

/** A metadata key: 1 to 40 characters, no control characters or square brackets (Stripe's form-encoding rule). */
const metadataKey = z
  .string()
  .min(1, { error: 'metadata keys must not be empty' })
  .max(METADATA_LIMITS.keyLength, { error: `metadata keys are at most ${METADATA_LIMITS.keyLength} characters` })
  .regex(/^[^\u0000-\u001F\u007F[\]]+$/, { error: 'metadata keys must not contain control characters or square brackets' });

/**
 * The merchant's own key-value pairs (docs/api.md, "Metadata"): up to 20 keys of at most 40 characters, string values of
 * at most 500 characters, 8 KiB (UTF-8) in all. A problem names its key: field metadata.<key>.
 */
export const MetadataInputSchema = z
  .record(metadataKey, z.string().max(METADATA_LIMITS.valueLength, { error: `metadata values are strings of at most ${METADATA_LIMITS.valueLength} characters` }))
  .superRefine((metadata, ctx) => {
    if (Object.keys(metadata).length > METADATA_LIMITS.keys) ctx.addIssue({ code: 'custom', message: `at most ${METADATA_LIMITS.keys} keys` });
    else if (metadataBytes(metadata) > METADATA_LIMITS.totalBytes) ctx.addIssue({ code: 'custom', message: `at most ${METADATA_LIMITS.totalBytes} bytes (UTF-8) of keys and values in all` });
  })
  .meta({
    id: 'MetadataInput',
    description: 'Your own key-value pairs, returned on the object and in its events; never interpreted. Up to 20 keys (1-40 characters), string values up to 500 characters, 8 KiB in all. Never put card data or secrets here.',
    example: { orderId: 'order_42', channel: 'web' },
  });
