import * as z from 'zod';
import { CARD_STATUSES, GATEWAY_AUTH_STATUSES } from '../domain/stored-card.ts';
import { MetadataInputSchema } from './common.ts';
import { TransactionSchema } from './transaction-schemas.ts';

const SvcToken = z.string().regex(/^tok_svc_[0-9A-Za-z]{1,64}$/, { error: 'must be a stored card token (tok_svc_...)' });

export const CardSchema = z
  .object({
    id: z.string(),
    svcToken: z.string().meta({ description: 'The only card handle: it allows charging the card, so keep it server-side.', example: 'tok_svc_7Hq2LmZ8rT1vB6nW3kY5aQeX' }),
    brand: z.string().meta({ example: 'visa' }),
    lastFour: z.string().meta({ example: '1111' }),
    expMonth: z.int(),
    expYear: z.int(),
    holderName: z.string().nullable(),
    status: z.enum(CARD_STATUSES).meta({ description: 'expired once its expiry month is over; deleted after DELETE.' }),
    customerRef: z.string().nullable(),
    createdAt: z.string(),
    gatewayAuthStatus: z.enum(GATEWAY_AUTH_STATUSES).nullable().meta({ description: 'Only for the gateway that verifies cards periodically (bank_otp); null otherwise.' }),
    gatewayAuthenticatedAt: z.string().nullable(),
    gatewayAuthExpiresAt: z.string().nullable().meta({ description: 'Estimate: three months after the last verification; the gateway decides.' }),
  })
  .meta({ id: 'Card' });

export const CardListSchema = z.array(CardSchema).meta({ id: 'CardList' });

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

/** The answer of POST /v1/charges: its transaction and the card charged (it has no session). */
export const ServerChargeSchema = TransactionSchema.extend({ svcToken: z.string().meta({ example: 'tok_svc_7Hq2LmZ8rT1vB6nW3kY5aQeX' }) }).meta({ id: 'ServerCharge' });
