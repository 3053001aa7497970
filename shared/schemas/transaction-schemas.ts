import * as z from 'zod';
import { CURRENCIES, GATEWAY_IDS } from '../domain/merchant.ts';
import { DOCUMENT_TYPES } from '../domain/prefill.ts';
import { TRANSACTION_STATUSES } from '../domain/transaction.ts';
import { RefundSchema } from './refund-schemas.ts';
import { MetadataSchema, queryInt } from './common.ts';
import { MAX_PAGE_SIZE } from './session-schemas.ts';

export const TransactionSchema = z
  .object({
    reference: z.string().meta({ example: 'txn_8sKq2LmZ8rT1vB6nW3kY5aQe' }),
    status: z.enum(TRANSACTION_STATUSES),
    test: z.boolean().meta({ description: 'Made with a test key: no money moved; excluded from analytics.' }),
    sessionReference: z.string().nullable(),
    amountMinor: z.int(),
    currency: z.enum(CURRENCIES),
    card: z.object({ brand: z.string(), lastFour: z.string() }).nullable().meta({ description: 'Null on a USD payment opened before any card was sent.' }),
    processorReference: z.string().nullable().meta({ description: "The bank's reference of an approved charge, for reconciliation." }),
    declineReason: z.string().nullable().meta({ description: 'Spanish text for the buyer; may change. Null unless declined or failed.' }),
    errorCode: z.string().nullable().meta({ description: 'Processor code (or one of ours); branch on this.' }),
    metadata: MetadataSchema.meta({ description: "The charge's metadata; a checkout charge's is its session's." }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Transaction' });

/** A transaction as the buyer's checkout sees it: without the merchant's metadata. */
export const CheckoutTransactionSchema = TransactionSchema.omit({ metadata: true }).meta({ id: 'CheckoutTransaction' });

export const TransactionDetailSchema = TransactionSchema.extend({
  gateway: z.enum(GATEWAY_IDS as [string, ...string[]]),
  cardholderName: z.string().nullable(),
  document: z.object({ type: z.enum(DOCUMENT_TYPES), id: z.string() }).nullable(),
  detail: z.string().nullable().meta({ description: 'Full technical reason of a rejection.' }),
  trace: z.array(z.object({ at: z.string(), event: z.string(), detail: z.string().optional() })),
  amountRefundedMinor: z.int().meta({ description: 'Sum of the refunds that succeeded; the status is refunded once it reaches amountMinor.' }),
  refunds: z.array(RefundSchema).meta({ description: 'Oldest first.' }),
}).meta({ id: 'TransactionDetail' });

export const TransactionListSchema = z
  .object({ data: z.array(TransactionSchema), total: z.int(), page: z.int(), pageSize: z.int() })
  .meta({ id: 'TransactionList' });

/** Normalised to toISOString() so that it compares, as text, with the stored timestamps. */
const isoDate = z.iso
  .datetime({ offset: false, error: 'must be an ISO 8601 UTC timestamp, e.g. 2026-01-31T00:00:00Z' })
  .transform((v) => new Date(v).toISOString());

export const ListTransactionsQuerySchema = z.strictObject({
  page: queryInt(1, 1_000_000, 1),
  pageSize: queryInt(1, MAX_PAGE_SIZE, 10),
  status: z.enum(TRANSACTION_STATUSES).optional(),
  sessionReference: z.string().regex(/^cs_[0-9A-Za-z]{1,64}$/, { error: 'must be a session reference (cs_...)' }).optional(),
  createdFrom: isoDate.optional().meta({ description: 'Inclusive.' }),
  createdTo: isoDate.optional().meta({ description: 'Exclusive.' }),
});

export const TransactionReferenceParamsSchema = z.strictObject({
  reference: z.string().regex(/^txn_[0-9A-Za-z]{1,64}$/, { error: 'must be a transaction reference (txn_...)' }),
});

export const AnalyticsSummaryQuerySchema = z
  .strictObject({ from: isoDate, to: isoDate })
  .refine((q) => q.from < q.to, { error: 'from must be before to', path: ['to'] });

const approvalRate = z.number().nullable().meta({ description: 'approved / (approved + declined + failed), refunded counted as approved, 4 decimals; null when there are none.' });

export const AnalyticsSummarySchema = z
  .object({
    from: z.string(),
    to: z.string(),
    byCurrency: z.array(
      z.object({
        currency: z.enum(CURRENCIES),
        counts: z.object(Object.fromEntries(TRANSACTION_STATUSES.map((s) => [s, z.int()])) as Record<(typeof TRANSACTION_STATUSES)[number], z.ZodInt>),
        approvedAmountMinor: z.int().meta({ description: 'Sum of the amounts approved, refunded transactions included.' }),
        refundedAmountMinor: z.int().meta({ description: 'Sum of the refunds that succeeded, partial ones included.' }),
        approvalRate,
      }),
    ),
    approvalRate,
  })
  .meta({ id: 'AnalyticsSummary', description: 'Live transactions created in [from, to); test transactions are never counted.' });
