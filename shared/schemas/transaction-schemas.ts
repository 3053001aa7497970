import * as z from 'zod';
import { TRANSACTION_STATUSES } from '../domain/transaction.ts';
import { queryInt } from './common.ts';
import { MAX_PAGE_SIZE } from './session-schemas.ts';

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
