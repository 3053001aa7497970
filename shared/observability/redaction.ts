/**
 * Masks card data and secrets in what is logged: a second line of defence behind the handlers, which never log
 * them on purpose. Applied to every log line by the logger (shared/observability/logger.ts). Pure.
 */

export const REDACTED = '[REDACTED]';

/**
 * Field names whose value is a secret, a card security code or the buyer's bank code, whatever it looks like:
 * Mercantil's AES key (`secretKey`), its IBM client id (`clientId`, header X-IBM-Client-Id) and the encrypted code
 * of a debit payment (`twofactor_auth`) among them. A pago móvil payer's document (`documentId`) and Mercantil's
 * encrypted payer and merchant fields are personal data, as is the payment key (below).
 */
const SENSITIVE_KEY =
  /^(cvv2?|cvc2?|cid|csc|security_?code|authorization|password|passwd|secret|(test_?|live_?)?secret_?key|(oauth_?)?client_?(secret|id)|x-ibm-client-id|api_?key|access_?token|refresh_?token|pin|otp|twofactor_auth|document_?id|destination_id|(origin|destination)_mobile_number)$/i;

/** `key` is also a pago móvil payment key (digits, POST /v1/checkout/pago-movil/charge): redacted when it reads as one. */
const PAYMENT_KEY = /^\d{4,12}$/;

/**
 * A Venezuelan mobile phone in any common form (04141234567, +58 414-123.45.67, 584141234567), not part of a longer
 * run of digits: masked to its last four digits, as a phone is shown to anyone but the merchant.
 */
const MOBILE_PHONE = /(?<![\d+])(?:\+?58[ -]?|0)4(?:12|14|16|24|26)(?:[ .-]?\d){7}(?![\d])/g;
const maskPhone = (phone: string) => `*******${phone.replace(/\D/g, '').slice(-4)}`;

/**
 * `code` is also the buyer's bank code (POST /v1/checkout/otp, 8 digits in the bank's samples, or a phone-banking
 * key): redacted unless it reads as an error code, snake_case (`card_declined`) or upper case (Node's `ECONNRESET`),
 * which logged errors carry and a runbook needs.
 */
const ERROR_CODE = /^(?:[a-z]+(?:_[a-z0-9]+)+|[A-Z][A-Z0-9_]+)$/;

/**
 * 13 to 19 digits, possibly grouped by single spaces or dashes, not part of a longer run of digits: card-like
 * whatever its Luhn (a mistyped number, the bank's own test debit card). A UUID, never a card's shape, is matched
 * first and kept, so a request id whose first groups are digits stays whole.
 */
const UUID_OR_DIGIT_RUN = /(\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b)|(?<![\d])\d(?:[ -]?\d){12,18}(?![\d])/gi;
/** Webhook signing secrets, merchant API keys (secret and restricted), and credentials after an auth scheme. */
const SECRET_PATTERNS: [RegExp, string][] = [
  [/\bwhsec_[A-Za-z0-9+/=_-]+/g, `whsec_${REDACTED}`],
  [/\b(sk|rk)_(live|test)_[A-Za-z0-9]+/g, `$1_$2_${REDACTED}`],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`],
];

/**
 * The text with card-like digit runs masked to their last four digits, and secrets replaced.
 *
 * @example
 * maskSensitiveText('card 4111 1111 1111 1111, key sk_test_abc'); // 'card ************1111, key sk_test_[REDACTED]'
 */
export function maskSensitiveText(text: string): string {
  let masked = text.replace(UUID_OR_DIGIT_RUN, (run, uuid: string | undefined) => {
    if (uuid) return run;
    const digits = run.replace(/[ -]/g, '');
    return `${'*'.repeat(digits.length - 4)}${digits.slice(-4)}`;
  });
  masked = masked.replace(MOBILE_PHONE, maskPhone);
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
  if (key === 'code' && (typeof value === 'number' || (typeof value === 'string' && !ERROR_CODE.test(value)))) return REDACTED;
  if (key === 'key' && (typeof value === 'number' || (typeof value === 'string' && PAYMENT_KEY.test(value)))) return REDACTED;
  if (key === 'phone' && typeof value === 'string') return maskPhone(value);
  if (typeof value === 'string') return maskSensitiveText(value);
  // From 15 digits (American Express, and every longer number): epoch milliseconds (13 digits) stay numbers.
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1e14) {
    const masked = maskSensitiveText(String(value));
    return masked === String(value) ? value : masked;
  }
  if (typeof value === 'bigint') return maskSensitiveText(value.toString());
  return value;
}
