import * as z from 'zod';
import { CURRENCIES } from '../domain/merchant.ts';
import { DOCUMENT_TYPES } from '../domain/prefill.ts';
import { CLOSED_REASONS, SESSION_STATUSES } from '../domain/session-state.ts';
import { CheckoutTransactionSchema } from './transaction-schemas.ts';

const SessionReference = z.string().regex(/^cs_[0-9A-Za-z]{1,64}$/, { error: 'must be a session reference (cs_...)' });

/**
 * Only the shape is checked here; the buyer's data itself (card number, expiry, CVV, holder, document) is checked
 * once the session is known, because invalid data is an attempt that counts as a failure. Which card fields are
 * required depends on the session too: a stored-card session (cardToken) takes only the CVV
 * (shared/payments/payment-input.ts).
 */
export const CheckoutChargeBodySchema = z
  .strictObject({
    sessionReference: SessionReference,
    card: z.strictObject({
      number: z.string().max(40).optional().meta({ description: 'Card number as typed; spaces and dashes are ignored. Never stored or echoed. Required unless the session pays a stored card (then refused).' }),
      expMonth: z.int().optional().meta({ example: 12, description: 'Required unless the session pays a stored card (then refused).' }),
      expYear: z.int().optional().meta({ description: 'Four digits. Required unless the session pays a stored card (then refused).', example: 2030 }),
      cvv: z.string().max(8).meta({ description: 'Never stored, asked again on every payment, stored cards included.' }),
      holderName: z
        .string()
        .max(1000)
        .optional()
        .meta({ description: 'Required: its absence is an attempt that fails with 400 and counts. With a stored card, used only when the card has no holder.' }),
    }),
    document: z
      .strictObject({ type: z.string().max(10).meta({ description: DOCUMENT_TYPES.join(', ') }), id: z.string().max(100) })
      .optional()
      .meta({ description: 'Identity document of the payer; required on the VES gateways (see requiresDocument).' }),
  })
  .meta({ id: 'CheckoutChargeRequest' });

export const CheckoutOtpBodySchema = z
  .strictObject({
    sessionReference: SessionReference,
    transactionReference: z.string().regex(/^txn_[0-9A-Za-z]{1,64}$/, { error: 'must be a transaction reference (txn_...)' }),
    code: z.string().max(12).meta({ description: 'The code the bank sent to the buyer.' }),
    cvv: z
      .string()
      .regex(/^\d{3,4}$/, { error: 'must be 3 or 4 digits' })
      .optional()
      .meta({ description: 'The card CVV again, required where the bank takes the whole card with the code (Mercantil debit cards). Never stored.' }),
    accountType: z
      .enum(['CC', 'CA'])
      .optional()
      .meta({ description: 'The debit card account, required with cvv on Mercantil debit cards: CC cuenta corriente, CA cuenta de ahorros.' }),
  })
  .meta({ id: 'CheckoutOtpRequest' });

export const CheckoutSessionParamsSchema = z.strictObject({ reference: SessionReference });

const SessionProgressSchema = z.object({
  reference: z.string(),
  status: z.enum(SESSION_STATUSES),
  closedReason: z.enum(CLOSED_REASONS).nullable(),
  attemptsRemaining: z.int().nullable(),
  returnUrl: z.string().nullable(),
});

export const CheckoutChargeResultSchema = z
  .object({
    transaction: CheckoutTransactionSchema,
    session: SessionProgressSchema,
    nextAction: z
      .object({ type: z.literal('otp'), entriesRemaining: z.int() })
      .nullable()
      .meta({ description: 'otp: ask the buyer for the code and send it to POST /v1/checkout/otp.' }),
  })
  .meta({ id: 'CheckoutChargeResult' });

export const CheckoutMerchantSchema = z
  .object({
    businessName: z.string().meta({ description: "The merchant's public name (its business name, else its account name): whom the buyer pays." }),
    logoUrl: z
      .string()
      .nullable()
      .meta({ description: 'Path of the logo on the checkout origin (/v1/checkout/logos/{merchantId}/{hash}), a new one when the image changes; null without a logo.' }),
  })
  .meta({ id: 'CheckoutMerchant' });

export const CheckoutSessionSchema = z
  .object({
    reference: z.string(),
    merchant: CheckoutMerchantSchema,
    status: z.enum(SESSION_STATUSES),
    closedReason: z.enum(CLOSED_REASONS).nullable(),
    amountMinor: z.int(),
    currency: z.enum(CURRENCIES),
    description: z.string().nullable(),
    expiresAt: z.string(),
    attemptsRemaining: z.int().nullable(),
    lastAttemptWarning: z.boolean().meta({ description: 'True when exactly one attempt remains: the only time the buyer is warned.' }),
    prefill: z.object({ cardholderName: z.string().optional(), documentType: z.enum(DOCUMENT_TYPES).optional(), documentId: z.string().optional() }).nullable(),
    requiresOtp: z.boolean().meta({ description: 'The gateway confirms every charge with an OTP (some cards ask for one on any gateway).' }),
    requiresDocument: z.boolean(),
    luhnCheck: z.boolean().meta({ description: "Check the card number's Luhn digit before sending; false in test mode where the network's own test cards fail it." }),
    otpAsksCard: z.boolean().meta({ description: 'The code step also asks the CVV and the account type again (Mercantil debit cards): send cvv and accountType to POST /v1/checkout/otp.' }),
    storedCard: z.object({ brand: z.string(), lastFour: z.string() }).nullable(),
    returnUrl: z.string().nullable(),
    lastTransaction: CheckoutTransactionSchema.nullable(),
    test: z.boolean(),
  })
  .meta({ id: 'CheckoutSession' });
export type CheckoutChargeBody = z.output<typeof CheckoutChargeBodySchema>;
export type CheckoutOtpBody = z.output<typeof CheckoutOtpBodySchema>;
