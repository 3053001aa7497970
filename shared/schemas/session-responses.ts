/** What the session operations answer: for the OpenAPI document and the SDK's and pages' types only, out of every Lambda bundle. */
import * as z from 'zod';
import { CURRENCIES } from '../domain/merchant.ts';
import { PAYMENT_METHOD_TYPES } from '../domain/payment-method.ts';
import { DOCUMENT_TYPES } from '../domain/prefill.ts';
import { CLOSED_REASONS, SESSION_STATUSES } from '../domain/session-state.ts';
import { MetadataSchema } from './common-responses.ts';

const PrefillSchema = z
  .object({
    cardholderName: z.string().optional(),
    documentType: z.enum(DOCUMENT_TYPES).optional(),
    documentId: z.string().optional(),
  })
  .meta({ id: 'Prefill' });

export const SessionSchema = z
  .object({
    id: z.string(),
    reference: z.string().meta({ example: 'cs_4fJ9xq2LmZ8rT1vB6nW3kY5a' }),
    mode: z.enum(['test', 'live']),
    status: z.enum(SESSION_STATUSES),
    closedReason: z.enum(CLOSED_REASONS).nullable(),
    amountMinor: z.int(),
    currency: z.enum(CURRENCIES),
    description: z.string().nullable(),
    customerRef: z.string().nullable(),
    returnUrl: z.string().nullable(),
    checkoutUrl: z.string(),
    createdAt: z.string(),
    expiresAt: z.string(),
    maxFailures: z.int().nullable(),
    attemptsRemaining: z.int().nullable(),
    attemptCount: z.int(),
    prefill: PrefillSchema.nullable(),
    metadata: MetadataSchema,
    paymentMethods: z.array(z.enum(PAYMENT_METHOD_TYPES)).meta({ description: 'The methods the buyer may pay with.' }),
    lastTransaction: z.object({ reference: z.string(), status: z.string() }).loose().nullable(),
  })
  .meta({ id: 'Session' });

export const SessionListSchema = z
  .object({ data: z.array(SessionSchema), total: z.int(), page: z.int(), pageSize: z.int() })
  .meta({ id: 'SessionList' });
