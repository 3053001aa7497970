/** What the checkout operations answer: for the OpenAPI document and the checkout page's types only, out of every Lambda bundle. */
import * as z from 'zod';
import { CURRENCIES } from '../domain/merchant.ts';
import { PAYMENT_METHOD_TYPES } from '../domain/payment-method.ts';
import { OTP_FACTOR_KINDS, OTP_INPUT_TYPES } from '../domain/otp-factor.ts';
import { DOCUMENT_TYPES } from '../domain/prefill.ts';
import { CLOSED_REASONS, SESSION_STATUSES } from '../domain/session-state.ts';
import { CheckoutTransactionSchema, TransactionSchema } from './transaction-responses.ts';

const SessionProgressSchema = z.object({
  reference: z.string(),
  status: z.enum(SESSION_STATUSES),
  closedReason: z.enum(CLOSED_REASONS).nullable(),
  attemptsRemaining: z.int().nullable(),
  returnUrl: z.string().nullable(),
});

const OtpFactorSchema = z
  .object({
    kind: z.enum(OTP_FACTOR_KINDS).meta({ description: "phone_key: the buyer's clave telefónica, which they already have (nothing is sent); other: a factor known only by its label." }),
    bankName: z.string().meta({ description: 'The bank that asks, as buyers know it.', example: 'Mercantil' }),
    label: z.string().nullable().meta({ description: "The bank's own name for the factor, in Spanish; null when its answer had none.", example: 'Clave telefónica' }),
    length: z.int().nullable().meta({ description: 'Characters the bank expects, where it says.', example: 8 }),
    inputType: z.enum(OTP_INPUT_TYPES).meta({ description: 'numeric: digits only (a numeric keyboard).' }),
  })
  .meta({ id: 'OtpFactor' });

const NextActionSchema = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('otp'),
      entriesRemaining: z.int().meta({ description: 'Entries of the code step left in this attempt (3 at first); a wrong code or a refused account type uses one.' }),
      factor: OtpFactorSchema.nullable().meta({ description: "What the bank asks the buyer for, from its own answer (Mercantil's getauth); null where the bank sent the buyer a code." }),
    }),
    z.object({
      type: z.literal('pago_movil_verifying'),
      checkAgainAt: z.string().meta({ description: 'When the service searches the bank for the P2C payment again, by itself (ISO 8601 UTC).' }),
    }),
  ])
  .nullable()
  .meta({
    description:
      'otp: ask the buyer for the code (or the factor named) and send it to POST /v1/checkout/otp. pago_movil_verifying: the P2C reference was not found yet; the service searches again at checkAgainAt and after, so the page only reads the session.',
  });

export const CheckoutChargeResultSchema = z
  .object({
    transaction: CheckoutTransactionSchema,
    session: SessionProgressSchema,
    nextAction: NextActionSchema,
  })
  .meta({ id: 'CheckoutChargeResult' });

export const P2cReferenceResultSchema = z
  .object({
    transaction: TransactionSchema,
    session: SessionProgressSchema.pick({ reference: true, status: true, closedReason: true }),
    nextAction: NextActionSchema,
  })
  .meta({ id: 'P2cReferenceResult' });

export const PaymentKeyResultSchema = z
  .object({
    sent: z.literal(true).meta({ description: "The payer's bank accepted to send the key: the buyer gets it by SMS (or in their bank's app)." }),
    sessionReference: z.string(),
    keysRemaining: z.int().meta({ description: 'Keys this session may still ask for.' }),
  })
  .meta({ id: 'PaymentKeyResult' });

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
    paymentMethods: z.array(z.enum(PAYMENT_METHOD_TYPES)).meta({ description: 'The methods this session takes (POST /v1/sessions paymentMethods, else what the merchant offers): the page offers these.' }),
    returnUrl: z.string().nullable(),
    lastTransaction: CheckoutTransactionSchema.nullable(),
    nextAction: NextActionSchema,
    test: z.boolean(),
    simulated: z.boolean().meta({
      description: "True only in the sandbox, when the session's network is the sandbox's simulator (live mode included): no real network is called and no money moves. Always false in AWS.",
    }),
  })
  .meta({ id: 'CheckoutSession' });
