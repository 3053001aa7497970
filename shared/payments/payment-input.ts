import type { PaymentDeps } from '../deps.ts';
import type { CardInput, DocumentInput } from '../domain/payment-data.ts';
import type { Session } from '../domain/session.ts';
import { cardNumberContext } from '../domain/stored-card.ts';
import { ConflictError, ValidationError } from '../errors.ts';
import type { CheckoutChargeBody } from '../schemas/checkout-schemas.ts';

const TYPED_CARD_FIELDS = ['number', 'expMonth', 'expYear'] as const;

/**
 * What the buyer pays with on this session. A new card comes whole from the body. A stored card (cardToken) comes
 * from the vault with the CVV typed now; its stored holder and document win over what the browser sends, which
 * is asked for only when the card has none. Shape problems are refused with 400 before any attempt.
 */
export async function paymentInput(deps: PaymentDeps, session: Session, body: CheckoutChargeBody): Promise<{ card: CardInput; document?: DocumentInput }> {
  const typed = TYPED_CARD_FIELDS.filter((field) => body.card[field] !== undefined);
  if (!session.cardToken) {
    const missing = TYPED_CARD_FIELDS.find((field) => body.card[field] === undefined);
    if (missing) throw new ValidationError(`Missing required parameter: card.${missing}.`, `card.${missing}`, 'parameter_missing');
    return { card: body.card as CardInput, document: body.document };
  }
  if (typed.length > 0) {
    throw new ValidationError(`This session pays with a stored card: send only card.cvv, not card.${typed[0]}.`, `card.${typed[0]}`, 'parameter_unknown');
  }
  const card = await deps.cards.get(session.cardToken);
  if (!card || card.status === 'deleted' || card.merchantId !== session.merchantId) {
    throw new ConflictError('card_unavailable', 'The stored card of this session was deleted and can no longer be charged. A new payment needs a new session.');
  }
  const number = await deps.secretBox.decrypt(card.encryptedNumber, cardNumberContext(card.merchantId, card.vaultRef));
  const storedDocument = card.documentType && card.documentId ? { type: card.documentType, id: card.documentId } : undefined;
  return {
    card: { number, expMonth: card.expMonth, expYear: card.expYear, cvv: body.card.cvv, holderName: card.holderName ?? body.card.holderName },
    document: storedDocument ?? body.document,
  };
}
