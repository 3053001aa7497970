/**
 * Masks card data and secrets in what is logged: a second line of defence behind the handlers, which never log
 * them on purpose. Applied to every log line by the logger (shared/observability/logger.ts). Pure.
 */

export const REDACTED = '[REDACTED]';

/** Field names whose value is a secret or a card security code, whatever it looks like. */
const SENSITIVE_KEY = /^(cvv2?|cvc2?|cid|csc|security_?code|authorization|password|passwd|secret|client_?secret|api_?key|access_?token|refresh_?token|pin|otp)$/i;

/** 13 to 19 digits, possibly grouped by single spaces or dashes, not part of a longer run of digits. */
const DIGIT_RUN = /(?<![\d])\d(?:[ -]?\d){12,18}(?![\d])/g;
/** Webhook signing secrets, merchant API keys (secret and restricted), and credentials after an auth scheme. */
const SECRET_PATTERNS: [RegExp, string][] = [
  [/\bwhsec_[A-Za-z0-9+/=_-]+/g, `whsec_${REDACTED}`],
  [/\b(sk|rk)_(live|test)_[A-Za-z0-9]+/g, `$1_$2_${REDACTED}`],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`],
];

/** The Luhn check every card number passes (and most other long digit strings fail). */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * The text with Luhn-valid card numbers masked to their last four digits, and secrets replaced.
 *
 * @example
 * maskSensitiveText('card 4111 1111 1111 1111, key sk_test_abc'); // 'card ************1111, key sk_test_[REDACTED]'
 */
export function maskSensitiveText(text: string): string {
  let masked = text.replace(DIGIT_RUN, (run) => {
    const digits = run.replace(/[ -]/g, '');
    return passesLuhn(digits) ? `${'*'.repeat(digits.length - 4)}${digits.slice(-4)}` : run;
  });
  for (const [pattern, replacement] of SECRET_PATTERNS) masked = masked.replace(pattern, replacement);
  return masked;
}

/**
 * A JSON.stringify replacer: sensitive fields become [REDACTED], strings and long integers are masked.
 *
 * @example
 * JSON.stringify({ card: { number: '4111111111111111', cvv: '123' } }, redactingReplacer);
 * // {"card":{"number":"************1111","cvv":"[REDACTED]"}}
 */
export function redactingReplacer(key: string, value: unknown): unknown {
  if (key && SENSITIVE_KEY.test(key) && (typeof value === 'string' || typeof value === 'number')) return REDACTED;
  if (typeof value === 'string') return maskSensitiveText(value);
  // From 15 digits (American Express, and every longer number): epoch milliseconds (13 digits) stay numbers.
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1e14) {
    const masked = maskSensitiveText(String(value));
    return masked === String(value) ? value : masked;
  }
  if (typeof value === 'bigint') return maskSensitiveText(value.toString());
  return value;
}
