import * as z from 'zod';

export const ErrorSchema = z
  .object({
    statusCode: z.int(),
    error: z.string(),
    message: z.string(),
    code: z.string().meta({ description: 'Machine-readable error code; branch on this, not on the message.' }),
    field: z.string().optional().meta({ description: 'The offending parameter, when there is one.' }),
  })
  .meta({
    id: 'Error',
    example: { statusCode: 400, error: 'Bad Request', message: 'Invalid amountMinor: Too small: expected number to be >=1', code: 'parameter_invalid', field: 'amountMinor' },
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
