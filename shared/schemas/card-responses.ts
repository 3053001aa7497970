/** What the stored-card and server-charge operations answer: for the OpenAPI document and the SDK's and pages' types only, out of every Lambda bundle. */
import * as z from 'zod';
import { CARD_STATUSES, GATEWAY_AUTH_STATUSES } from '../domain/stored-card.ts';
import { TransactionSchema } from './transaction-responses.ts';

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

/** The answer of POST /v1/charges: its transaction and the card charged (it has no session). */
export const ServerChargeSchema = TransactionSchema.extend({ svcToken: z.string().meta({ example: 'tok_svc_7Hq2LmZ8rT1vB6nW3kY5aQeX' }) }).meta({ id: 'ServerCharge' });
