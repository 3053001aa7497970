import * as z from 'zod';
import { BANK_CODES, isBankCode, nationalPhone, payerDocumentIssue } from '../domain/pago-movil.ts';
import { cleanDocumentId, DOCUMENT_TYPES, type DocumentType } from '../domain/prefill.ts';

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
    code: z
      .string()
      .max(12)
      .optional()
      .meta({ description: 'The code the bank sent to the buyer, or the factor it asked for (nextAction.factor: Mercantil\'s clave telefónica). Required unless abandon.' }),
    abandon: z
      .literal(true)
      .optional()
      .meta({ description: 'Instead of a code: the buyer leaves the code step to pay another way. The attempt ends declined `otp_abandoned`, one failure of the session.' }),
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

/**
 * The pago móvil payer, checked whole here (a bad one is refused 400 naming the field and changes nothing, unlike a
 * card's data, which is an attempt): bank code, a mobile phone in any common form, and the document.
 */
const pagoMovilPayer = {
  sessionReference: SessionReference,
  bankCode: z
    .string()
    .refine(isBankCode, { error: 'must be the 4-digit code of a pago móvil bank (0105 Mercantil, 0102 Banco de Venezuela, ...)' })
    .meta({ description: "The payer's bank, by its pago móvil code.", enum: BANK_CODES, example: '0105' }),
  phone: z
    .string()
    .max(30)
    .refine((typed) => nationalPhone(typed) !== null, { error: 'must be a Venezuelan mobile phone (0412, 0414, 0416, 0424 or 0426 and 7 digits)' })
    .meta({ description: 'The phone the payer has pago móvil on, in any common form (04141234567, +58 414-123.45.67).', example: '04141234567' }),
  documentType: z.enum(DOCUMENT_TYPES).meta({ description: 'V, E, J, G or P (passport).' }),
  documentId: z.string().max(30).meta({ description: "The payer's cédula, RIF or passport number, without the letter.", example: '9999999' }),
};

/** The document's number as the type takes it (5 to 10 digits, a passport 5 to 12 letters and digits). */
const checkPayerDocument = (body: { documentType: DocumentType; documentId: string }, ctx: z.RefinementCtx) => {
  const issue = payerDocumentIssue(body.documentType, cleanDocumentId(body.documentId));
  if (issue) ctx.addIssue({ code: 'custom', path: ['documentId'], message: issue });
};

export const PagoMovilKeyBodySchema = z.strictObject(pagoMovilPayer).superRefine(checkPayerDocument).meta({ id: 'PagoMovilKeyRequest' });

export const PagoMovilChargeBodySchema = z
  .strictObject({
    ...pagoMovilPayer,
    key: z
      .string()
      .regex(/^\d{4,12}$/, { error: 'must be the payment key the bank sent, 4 to 12 digits' })
      .meta({ description: 'The payment key ("clave de pago") the payer\'s bank sent them. Used for this one debit: never stored, logged or echoed.', example: '00001111' }),
  })
  .superRefine(checkPayerDocument)
  .meta({ id: 'PagoMovilChargeRequest' });

/** A P2C payment as the buyer's banking app showed it (docs/pago-movil.md, "P2C"); the merchant's route has no sessionReference. */
const p2cPayment = {
  reference: z
    .string()
    .regex(/^\d{4,15}$/, { error: "must be the payment's reference as the bank app shows it, 4 to 15 digits" })
    .meta({ description: "The payment's reference, as the payer's banking app shows it.", example: '84840003380' }),
  bankCode: pagoMovilPayer.bankCode,
  phone: pagoMovilPayer.phone,
  paidOn: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'must be the day paid, YYYY-MM-DD' })
    .refine((day) => !Number.isNaN(Date.parse(`${day}T00:00:00Z`)) && new Date(`${day}T00:00:00Z`).toISOString().startsWith(day), { error: 'must be a real day, YYYY-MM-DD' })
    .meta({ description: 'The day the payer paid, YYYY-MM-DD in Caracas time; not after today.', example: '2025-03-17' }),
};

export const P2cReferenceBodySchema = z.strictObject(p2cPayment).meta({ id: 'P2cReferenceRequest' });
export const CheckoutP2cReferenceBodySchema = z.strictObject({ sessionReference: SessionReference, ...p2cPayment }).meta({ id: 'CheckoutP2cReferenceRequest' });
export type P2cReferenceBody = z.output<typeof P2cReferenceBodySchema>;

export const CheckoutSessionParamsSchema = z.strictObject({ reference: SessionReference });

export type CheckoutChargeBody = z.output<typeof CheckoutChargeBodySchema>;
export type CheckoutOtpBody = z.output<typeof CheckoutOtpBodySchema>;
export type PagoMovilKeyBody = z.output<typeof PagoMovilKeyBodySchema>;
export type PagoMovilChargeBody = z.output<typeof PagoMovilChargeBodySchema>;
