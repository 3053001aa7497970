/**
 * The per-card bound against card testing: a card declined CARD_DECLINES_PER_DAY times at one merchant in a UTC
 * day, on any of its live checkout sessions, is refused from then on without asking the bank, until the day ends.
 * The card is known by the card vault's keyed fingerprint of its number alone (a tester's changed expiry is the same
 * card), never by the number or an unkeyed hash of it. Test mode is left out: its numbers are the sandbox bank's
 * documented test cards, which move no money and which developers replay all day. Pure.
 */
import type { Mode } from './session-state.ts';

export const CARD_DECLINES_PER_DAY = 5;

/** What the fingerprinter keys: its own prefix, so that it matches no other fingerprint of the same number. */
export const cardDeclinesInput = (merchantId: string, number: string): string => `card-declines:v1|${merchantId}|${number}`;

/** The counter's name in the rate-limit store, under the merchant: one per card and UTC day. */
export const cardDeclinesCounter = (cardKey: string): string => `card_declines#${cardKey}`;

export const countsCardDeclines = (mode: Mode): boolean => mode === 'live';

export const cardRefused = (declinesToday: number): boolean => declinesToday >= CARD_DECLINES_PER_DAY;
