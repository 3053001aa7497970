/** What the transaction and analytics operations answer: for the OpenAPI document and the SDK's and pages' types only, out of every Lambda bundle. */
import * as z from 'zod';
import { CURRENCIES, GATEWAY_IDS } from '../domain/merchant.ts';
import { CARD_FUNDINGS } from '../domain/payment-data.ts';
import { BANK_CODES } from '../domain/pago-movil.ts';
import { PAGO_MOVIL_METHODS } from '../domain/payment-method.ts';
import { DOCUMENT_TYPES } from '../domain/prefill.ts';
import { TRANSACTION_STATUSES } from '../domain/transaction.ts';
import { RefundSchema } from './refund-responses.ts';
import { MetadataSchema } from './common-responses.ts';

/** How a transaction was paid, after Stripe's payment_method_details (shared/domain/payment-method.ts). */
export const PaymentMethodDetailsSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('card') }),
    z.object({
      type: z.enum(PAGO_MOVIL_METHODS),
      pagoMovil: z.object({
        bankCode: z.enum(BANK_CODES).meta({ description: "The payer's bank, by its 4-digit pago móvil code.", example: '0105' }),
        bankName: z.string().meta({ example: 'Mercantil' }),
        phone: z.string().meta({ description: "The payer's phone: masked to its last four digits, whole only in the transaction detail.", example: '*******4567' }),
        reference: z.string().nullable().meta({ description: "The bank's reference of the payment (C2P: the debit's; P2C: the one the buyer gave)." }),
        amountReceivedMinor: z.int().nullable().meta({ description: 'P2C: what the bank says was received, when it differs from the amount asked.' }),
      }),
    }),
  ])
  .meta({ id: 'PaymentMethodDetails', description: 'How the buyer paid: card or pago móvil. The card itself is in `card`.' });

export const TransactionSchema = z
  .object({
    reference: z.string().meta({ example: 'txn_8sKq2LmZ8rT1vB6nW3kY5aQe' }),
    status: z.enum(TRANSACTION_STATUSES),
    test: z.boolean().meta({ description: 'Made with a test key: no money moved; excluded from analytics.' }),
    sessionReference: z.string().nullable(),
    amountMinor: z.int(),
    currency: z.enum(CURRENCIES),
    card: z
      .object({
        brand: z.string().meta({ description: 'From the IIN: visa, mastercard, maestro, amex or unknown.' }),
        lastFour: z.string(),
        funding: z.enum(CARD_FUNDINGS).nullable().meta({ description: "Debit, credit or prepaid where a source tells (the brand, Maestro being debit; the network's approval); null where none does." }),
      })
      .nullable()
      .meta({ description: 'Null on a USD payment opened before any card was sent, and on pago móvil.' }),
    paymentMethod: PaymentMethodDetailsSchema,
    processorReference: z.string().nullable().meta({ description: "The bank's reference of an approved charge, for reconciliation (Stripe: the PaymentIntent id)." }),
    authorizationCode: z.string().nullable().meta({ description: "The issuer's authorization code of an approved charge, where the network returns one (Stripe); the code the buyer's bank knows the payment by." }),
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
        refundedExternallyAmountMinor: z.int().meta({ description: 'The part of refundedAmountMinor the merchant returned another way and recorded (method external): no money moved through the network.' }),
        approvalRate,
      }),
    ),
    approvalRate,
  })
  .meta({ id: 'AnalyticsSummary', description: 'Live transactions created in [from, to); test transactions are never counted.' });
