import * as z from 'zod';
import { CURRENCIES } from '../domain/merchant.ts';
import { PAYMENT_METHOD_TYPES } from '../domain/payment-method.ts';
import { DOCUMENT_TYPES, normalisePrefill, prefillIssues, prefillOrNull } from '../domain/prefill.ts';
import { SESSION_DURATION_MINUTES } from '../domain/session.ts';
import { SESSION_STATUSES } from '../domain/session-state.ts';
import { MetadataInputSchema, queryInt } from './common.ts';

export const MAX_PAGE_SIZE = 100;

export const PrefillInputSchema = z
  .strictObject({
    cardholderName: z.string().max(1000).optional().meta({ description: 'Up to 80 characters after cleaning; not empty after cleaning.' }),
    documentType: z.string().max(10).optional().meta({ description: 'V, E, J, G or P (passport). May be sent alone.' }),
    documentId: z.string().max(100).optional().meta({ description: '5 to 12 characters after removing separators; digits for V/E/J/G, letters and digits for P. Requires documentType.' }),
  })
  .transform((raw, ctx) => {
    const cleaned = normalisePrefill(raw);
    for (const issue of prefillIssues(cleaned)) ctx.addIssue({ code: 'custom', message: issue.message, path: [issue.field] });
    return prefillOrNull(cleaned as { cardholderName?: string; documentType?: (typeof DOCUMENT_TYPES)[number]; documentId?: string });
  })
  .meta({ id: 'PrefillInput', description: 'Suggested values for the buyer form; cleaned before storing. An empty object is stored as null.' });

export const CreateSessionBodySchema = z
  .strictObject({
    amountMinor: z.int().min(1).meta({ description: 'Amount in minor units (1050 = 10.50).', example: 1050 }),
    currency: z.enum(CURRENCIES).meta({ description: 'VES or USD. Card payments settle in VES today.' }),
    customerRef: z.string().min(1).max(120).optional(),
    cardToken: z.string().startsWith('tok_svc_', { error: 'must start with tok_svc_' }).max(100).optional(),
    returnUrl: z.url({ protocol: /^https?$/, error: 'must be a valid http(s) URL' }).max(2048).optional(),
    description: z.string().max(140).optional(),
    maxFailures: z.int().min(0).max(10).optional().meta({ description: 'Failures tolerated (0 to 10); attempts = maxFailures + 1. Omit for no limit.' }),
    expiresInMinutes: z
      .int()
      .min(SESSION_DURATION_MINUTES.min)
      .max(SESSION_DURATION_MINUTES.max)
      .optional()
      .meta({ description: 'Whole minutes, 2 to 60; default 5. Out of range is rejected.' }),
    prefill: PrefillInputSchema.nullable().optional(),
    metadata: MetadataInputSchema.optional(),
    paymentMethods: z
      .array(z.enum(PAYMENT_METHOD_TYPES))
      .min(1)
      .max(PAYMENT_METHOD_TYPES.length)
      .refine((methods) => new Set(methods).size === methods.length, { error: 'must not name a method twice' })
      .optional()
      .meta({ description: 'The methods the buyer may pay with (card, pago_movil_c2p, pago_movil_p2c). Default: every method your account takes in this currency (docs/pago-movil.md).' }),
  })
  .meta({
    id: 'CreateSessionRequest',
    example: { amountMinor: 1050, currency: 'VES', description: 'Pedido 42', customerRef: 'cus_42', maxFailures: 2, expiresInMinutes: 15, returnUrl: 'https://shop.example/thanks', metadata: { orderId: 'order_42' } },
  });
export type CreateSessionBody = z.output<typeof CreateSessionBodySchema>;

export const SessionReferenceParamsSchema = z.strictObject({
  reference: z.string().regex(/^cs_[0-9A-Za-z]{1,64}$/, { error: 'must be a session reference (cs_...)' }),
});

export const ListSessionsQuerySchema = z.strictObject({
  page: queryInt(1, 1_000_000, 1),
  pageSize: queryInt(1, MAX_PAGE_SIZE, 10),
  status: z.enum(SESSION_STATUSES).optional(),
});
