/**
 * Sandbox-only control of the Mercantil simulator's pago móvil ledger, beside the bank's and Stripe's controls: "a
 * buyer sent a pago móvil of X to this merchant with reference R". What the control records is what the bank's
 * search (mobile-payment/search) then finds, so a developer can verify a P2C reference without a real bank app
 * (docs/pago-movil.md, "Sandbox: send yourself a pago móvil"). The simulator is one affiliated merchant: every sandbox
 * merchant on Mercantil's test credentials shares its ledger.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import * as z from 'zod';
import type { Clock } from '../../../shared/clock.ts';
import { caracasDay } from '../../../shared/domain/pago-movil.ts';
import { samePayment } from '../../../shared/domain/pago-movil-verification.ts';
import { internationalPhone, isBankCode, maskedPhone, nationalPhone, VENEZUELAN_BANKS, type BankCode } from '../../../shared/domain/pago-movil.ts';
import { errorBody, jsonResponse } from '../../../shared/http/response.ts';
import type { MercantilSimulator } from './mercantil-simulator.ts';
import type { IncomingPagoMovil } from './pago-movil-desk.ts';

export const PAGO_MOVIL_PAYMENTS_PATH = '/__sandbox/pago-movil/payments';

type Ledger = MercantilSimulator['pagoMovil'];

const isCalendarDate = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);

const PaymentSchema = z
  .object({
    amountMinor: z.int({ error: 'amountMinor must be a whole number of céntimos, at least 1 (Bs. 52,50 is 5250).' }).min(1, { error: 'amountMinor must be a whole number of céntimos, at least 1 (Bs. 52,50 is 5250).' }),
    payerPhone: z.string({ error: 'payerPhone must be a Venezuelan mobile number, e.g. 04141234567.' }).refine((phone) => nationalPhone(phone) !== null, {
      error: 'payerPhone must be a Venezuelan mobile number (0412, 0414, 0416, 0424 or 0426), e.g. 04141234567 or +58 414 1234567.',
    }),
    payerBankCode: z.string().refine(isBankCode, { error: 'payerBankCode must be a 4-digit pago móvil bank code, e.g. 0105 (docs/pago-movil.md, "Bank codes").' }).optional(),
    // The bank answers references as JSON numbers: 15 digits stay exact.
    reference: z.string().regex(/^\d{4,15}$/, { error: 'reference must be 4 to 15 digits, as the bank prints it.' }).optional(),
    date: z.string().refine(isCalendarDate, { error: 'date must be a day written YYYY-MM-DD.' }).optional(),
  })
  .strict();

/** The bank's 4-digit code; Mercantil's ledger keeps it as a number (105). */
const bankCodeOf = (payment: IncomingPagoMovil) => String(payment.payerBankId).padStart(4, '0') as BankCode;

/** A received payment as the controls answer it; the phone whole only to the caller who just typed it. */
function paymentResource(payment: IncomingPagoMovil, { wholePhone }: { wholePhone: boolean }) {
  const phone = nationalPhone(payment.payerPhone)!;
  const bankCode = bankCodeOf(payment);
  return {
    reference: payment.reference,
    payerPhone: wholePhone ? phone : maskedPhone(phone),
    payerBankCode: bankCode,
    payerBankName: VENEZUELAN_BANKS[bankCode],
    amountMinor: payment.amountMinor,
    currency: 'VES',
    date: payment.date,
    authorizationCode: payment.authorizationCode,
  };
}

/**
 * POST /__sandbox/pago-movil/payments {"amountMinor": 5250, "payerPhone": "0414-123.45.67", "reference": "84840003380"}:
 * 201 with the payment as the simulated bank recorded it (a reference of 11 digits when none is given; the payer's
 * bank 0105 and the sandbox's Caracas day by default).
 */
export function receivePagoMovil(ledger: Ledger, clock: Clock, body: Buffer): APIGatewayProxyResult {
  let input: unknown;
  try {
    input = JSON.parse(body.toString('utf8') || '{}');
  } catch {
    return jsonResponse(400, errorBody(400, 'invalid_json', 'The request body is not valid JSON.'));
  }
  const parsed = PaymentSchema.safeParse(input);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    if (issue!.code === 'unrecognized_keys') return invalid(issue!.keys[0]!, `${issue!.keys[0]} is not a field of a received pago móvil.`);
    const field = issue!.path.join('.') || 'body';
    const given = typeof input === 'object' && input !== null && field in input;
    return issue!.code === 'invalid_type' && !given && field !== 'body'
      ? jsonResponse(400, errorBody(400, 'parameter_missing', `${field} is required.`, field))
      : invalid(field, issue!.message);
  }
  const { amountMinor, payerPhone, payerBankCode = '0105', reference, date } = parsed.data;
  const today = caracasDay(new Date(clock.now()));
  if (date && date > today) return invalid('date', `date cannot be after the bank's today, ${today} in Caracas.`);
  const payerBankId = Number(payerBankCode);
  // Banks number their payments uniquely: the same reference twice would be two payments the search cannot tell apart.
  if (reference && ledger.incomingPayments().some((p) => samePayment({ bankCode: bankCodeOf(p), reference: p.reference }, { bankCode: payerBankCode, reference }))) {
    return invalid('reference', `A pago móvil from bank ${payerBankCode} with reference ${reference} was already received.`);
  }
  const payment = ledger.receivePayment({ amountMinor, payerPhone: internationalPhone(nationalPhone(payerPhone)!), payerBankId, reference, date });
  return jsonResponse(201, paymentResource(payment, { wholePhone: true }));
}

/** GET /__sandbox/pago-movil/payments: the payments received, newest first, each phone masked to its last four. */
export const listPagoMovil = (ledger: Ledger): APIGatewayProxyResult => jsonResponse(200, { data: receivedPagoMovil(ledger) });

/** The received payments as lists show them (the activity page too): newest first, phones masked. */
export const receivedPagoMovil = (ledger: Ledger) => [...ledger.incomingPayments()].reverse().map((p) => paymentResource(p, { wholePhone: false }));

const invalid = (field: string, message: string) => jsonResponse(400, errorBody(400, 'parameter_invalid', message, field));
