import * as z from 'zod';
import { MetadataInputSchema } from './common.ts';

const SvcToken = z.string().regex(/^tok_svc_[0-9A-Za-z]{1,64}$/, { error: 'must be a stored card token (tok_svc_...)' });

export const ListCardsQuerySchema = z.strictObject({
  customerRef: z.string().min(1).max(120).optional(),
});

export const CardTokenParamsSchema = z.strictObject({ svcToken: SvcToken });

export const CreateChargeBodySchema = z
  .strictObject({
    svcToken: z.string().startsWith('tok_svc_', { error: 'must start with tok_svc_' }).max(100),
    amountMinor: z.int().min(1).meta({ description: 'Amount in minor units (1050 = 10.50).', example: 1050 }),
    currency: z.enum(['VES', 'USD']).meta({ description: "Must be the currency of the card's gateway." }),
    description: z.string().max(140).optional(),
    customerRef: z.string().min(1).max(120).optional().meta({ description: "When sent, must equal the card's customerRef (a guard against charging the wrong customer)." }),
    metadata: MetadataInputSchema.optional(),
  })
  .meta({ id: 'CreateChargeRequest' });
export type CreateChargeBody = z.output<typeof CreateChargeBodySchema>;
