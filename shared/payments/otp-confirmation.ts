/**
 * The charge rebuilt for a network that takes the whole card again with the buyer's code (capability cardWithOtp:
 * Mercantil's debit `pay` carries card, CVV, account and code together). The number comes from the card sealed when
 * the network asked for the code (card-vault.ts sealForCode, in its own item) or from the vault for a stored-card session; expiry and document
 * from the transaction; the CVV and the account from the OTP request itself, never stored.
 */
import type { PaymentDeps } from '../deps.ts';
import type { Session } from '../domain/session.ts';
import { cardNumberContext } from '../domain/stored-card.ts';
import type { Transaction } from '../domain/transaction.ts';
import { ConflictError } from '../errors.ts';
import type { OtpConfirmation, PayerClient } from '../gateways/payment-gateway.ts';

export async function otpConfirmation(
  deps: PaymentDeps,
  session: Session,
  transaction: Transaction,
  entry: { code: string; cvv: string; accountType: 'CC' | 'CA' },
  client: PayerClient,
): Promise<OtpConfirmation> {
  const number = await cardNumberOf(deps, session, transaction);
  const card = transaction.card;
  if (!card) throw new Error(`Transaction ${transaction.reference} awaiting a code has no card summary`);
  return {
    code: entry.code,
    accountType: entry.accountType,
    charge: {
      transactionReference: transaction.reference,
      sessionReference: session.reference,
      amountMinor: session.amountMinor,
      currency: session.currency,
      client,
      payment: { card: { number, expMonth: card.expMonth, expYear: card.expYear, cvv: entry.cvv, holderName: card.holderName ?? '' }, document: transaction.document ?? null },
    },
  };
}

async function cardNumberOf(deps: PaymentDeps, session: Session, transaction: Transaction): Promise<string> {
  // A transaction written before the number had its own item still carries it.
  const sealed = transaction.sealedCard ?? (session.cardToken ? null : await deps.transactions.sealedCard(transaction.reference));
  if (sealed) return deps.secretBox.decrypt(sealed.encryptedNumber, cardNumberContext(session.merchantId, sealed.vaultRef));
  const stored = session.cardToken ? await deps.cards.get(session.cardToken) : null;
  if (!stored || stored.status === 'deleted') throw new ConflictError('card_unavailable', 'The card of this payment is no longer available. A new payment needs a new session.');
  return deps.secretBox.decrypt(stored.encryptedNumber, cardNumberContext(stored.merchantId, stored.vaultRef));
}
