/**
 * What the port asks of a network that offers pago móvil (the Venezuelan interbank mobile payment): a key sent to the
 * buyer for C2P (the merchant debits the buyer with the key the buyer's bank sent), and a search of the payments the
 * merchant received for P2C (the buyer paid from their bank app and gives the reference). The C2P debit itself is a
 * charge (ChargeRequest with a pago móvil payment). Sources: ../shared/reference/pago-movil.md.
 */
import type { BankCode } from '../domain/pago-movil.ts';
import type { DocumentType } from '../domain/prefill.ts';

/** The buyer as pago móvil knows them: their bank, their mobile phone (national form, 04141234567) and document. */
export interface PagoMovilPayer {
  bankCode: BankCode;
  phone: string;
  document: { type: DocumentType; id: string };
}

/** The answer to "send the buyer a payment key": the key itself never passes through us. */
export type PaymentKeyOutcome =
  | { kind: 'sent' }
  /** The bank refused to send one (unknown phone, not affiliated...): code is the bank's, reason the buyer's Spanish text. */
  | { kind: 'refused' | 'failed'; code: string; detail: string; reason?: string };

/** A payment the buyer says they sent to the merchant's affiliated phone, as the buyer or the merchant reports it. */
export interface IncomingPaymentQuery {
  /** The bank's reference of the payment, as the buyer's app showed it (digits). */
  reference: string;
  payer: Omit<PagoMovilPayer, 'document'> & { document?: PagoMovilPayer['document'] };
  /** The day the buyer paid, YYYY-MM-DD in Caracas time (the banks search by date). */
  paidOn: string;
  /** What the session asks: banks that search by amount are sent it, the answer's amount is compared by the domain. */
  amountMinor: number;
}

export type IncomingPaymentOutcome =
  /** The bank has it: amountMinor is what was received, which may differ from what was asked. */
  | { kind: 'found'; amountMinor: number; processorReference: string; authorizationCode?: string }
  /** No such payment (yet): payments can take minutes to show, so the service looks again for a while. */
  | { kind: 'not_found' }
  /** The bank itself says this payment was already claimed (BDV "ya fue conciliado"). */
  | { kind: 'already_claimed' }
  | { kind: 'failed'; code: string; detail: string };
