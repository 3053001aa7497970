/**
 * Stripe's documented test cards (docs.stripe.com/testing; the table in docs/connectors.md#stripe):
 * what the simulator does when a PaymentIntent is confirmed with each. Any future expiry and any CVC; a past expiry
 * declines with expired_card whatever the number.
 */

export type StripeCardBehaviour =
  | { kind: 'approve' }
  /** A card_error: Stripe's code, the issuer's decline_code when it gave one, and Stripe's own message. */
  | { kind: 'decline'; code: string; declineCode?: string; message: string }
  /** 3-D Secure: the intent waits in requires_action for the buyer, which only Stripe.js can ask. */
  | { kind: 'authenticate' };

const declined = (declineCode: string, message = 'Your card was declined.'): StripeCardBehaviour => ({ kind: 'decline', code: 'card_declined', declineCode, message });

export const STRIPE_TEST_CARDS: Record<string, { behaviour: StripeCardBehaviour; description: string }> = {
  '4242424242424242': { behaviour: { kind: 'approve' }, description: 'Visa: succeeds' },
  '4000000000000002': { behaviour: declined('generic_decline'), description: 'Declined: card_declined (generic_decline)' },
  '4000000000009995': { behaviour: declined('insufficient_funds', 'Your card has insufficient funds.'), description: 'Declined: insufficient_funds' },
  '4000000000009987': { behaviour: declined('lost_card'), description: 'Declined: lost_card' },
  '4000000000009979': { behaviour: declined('stolen_card'), description: 'Declined: stolen_card' },
  '4000000000000069': { behaviour: { kind: 'decline', code: 'expired_card', declineCode: 'expired_card', message: 'Your card has expired.' }, description: 'Declined: expired_card' },
  '4000000000000127': { behaviour: { kind: 'decline', code: 'incorrect_cvc', declineCode: 'incorrect_cvc', message: 'Your card\'s security code is incorrect.' }, description: 'Declined: incorrect_cvc' },
  '4000000000000119': { behaviour: { kind: 'decline', code: 'processing_error', declineCode: 'processing_error', message: 'An error occurred while processing your card. Try again in a little bit.' }, description: 'Declined: processing_error' },
  '4242424242424241': { behaviour: { kind: 'decline', code: 'incorrect_number', message: 'Your card number is incorrect.' }, description: 'Declined: incorrect_number (fails the Luhn check)' },
  '4000000000003220': { behaviour: { kind: 'authenticate' }, description: '3-D Secure required: requires_action' },
};

/**
 * A card number that is not a test card, sent in test mode: Stripe declines it. The simulator does the same in
 * both modes, since it knows no real cards.
 */
const NOT_A_TEST_CARD = declined('test_mode_live_card', 'Your card was declined. Your request was in test mode, but used a non test (live) card.');

/**
 * What Stripe does with this card at this moment (the sandbox clock decides what "past expiry" means).
 *
 * @example
 * stripeCardBehaviour({ number: '4000000000009995', expMonth: 12, expYear: 2034 }, Date.now()) // insufficient_funds
 */
export function stripeCardBehaviour(card: { number: string; expMonth: number; expYear: number }, now: number): StripeCardBehaviour {
  const today = new Date(now);
  const expired = card.expYear < today.getUTCFullYear() || (card.expYear === today.getUTCFullYear() && card.expMonth < today.getUTCMonth() + 1);
  if (expired) return { kind: 'decline', code: 'expired_card', declineCode: 'expired_card', message: 'Your card has expired.' };
  return STRIPE_TEST_CARDS[card.number]?.behaviour ?? NOT_A_TEST_CARD;
}

/** The brand Stripe reports for a number, by its leading digits. */
export function stripeCardBrand(number: string): string {
  if (/^4/.test(number)) return 'visa';
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  return 'unknown';
}
