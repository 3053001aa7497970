/**
 * Finds secrets in clear in any text: card numbers (Luhn-valid runs of 13 to 19 digits, spaces or dashes allowed
 * between them), the CVVs a suite sent, webhook signing secrets and API keys. Pure, so any suite can feed it table
 * items, log lines, event bodies and responses.
 */

export interface LeakFinding {
  source: string;
  kind: 'card_number' | 'cvv' | 'webhook_secret' | 'api_key' | 'credential';
  /** Masked: a report must not leak what it found. */
  excerpt: string;
}

export interface LeakRules {
  /** CVVs the suite sent; found only next to a cvv-like name (a bare 3-digit run is everywhere). */
  cvvs?: string[];
  /** Exact strings that must never appear (bank passwords, OAuth client secrets, keys the suite used). */
  secrets?: string[];
}

// Delimited by anything but letters and digits: a run inside an id or a base64 fingerprint is not a card number.
const DIGIT_RUN = /(?<![0-9A-Za-z])\d(?:[ -]?\d){12,18}(?![0-9A-Za-z])/g;
// Our ids are UUIDs; one whose first groups are all digits (46904062-5995-4143-...) reads as a dashed digit run that
// passes Luhn about 46 times in a million. A card is never shaped 8-4-4-4-12 in hex, so UUIDs are set aside first.
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const WEBHOOK_SECRET = /whsec_[0-9A-Za-z]{8,}/g;
const API_KEY = /\b(?:sk|rk)_(?:test|live)_[0-9A-Za-z]{8,}/g;

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

const mask = (s: string) => `${s.slice(0, 4)}…(${s.length})`;

/**
 * @example
 * const findings = scanForLeaks([{ source: 'log', text: line }], { cvvs: ['123'] });
 * expect(findings).toEqual([]);
 */
export function scanForLeaks(texts: { source: string; text: string }[], rules: LeakRules = {}): LeakFinding[] {
  const findings: LeakFinding[] = [];
  const cvvPatterns = (rules.cvvs ?? []).map((cvv) => new RegExp(`"?(?:cvv|cvc|securityCode)"?\\s*[:=]\\s*"?${cvv}\\b`, 'i'));
  for (const { source, text } of texts) {
    for (const match of text.replace(UUID, 'uuid').matchAll(DIGIT_RUN)) {
      const digits = match[0].replace(/[ -]/g, '');
      // Epoch milliseconds and similar counters are 13 digits too; a leaked card also starts with a card prefix (2-6).
      if (digits.length >= 13 && /^[2-6]/.test(digits) && luhnValid(digits)) findings.push({ source, kind: 'card_number', excerpt: mask(digits) });
    }
    for (const pattern of cvvPatterns) if (pattern.test(text)) findings.push({ source, kind: 'cvv', excerpt: 'cvv=…' });
    for (const match of text.matchAll(WEBHOOK_SECRET)) findings.push({ source, kind: 'webhook_secret', excerpt: mask(match[0]) });
    for (const match of text.matchAll(API_KEY)) findings.push({ source, kind: 'api_key', excerpt: mask(match[0]) });
    for (const secret of rules.secrets ?? []) if (secret && text.includes(secret)) findings.push({ source, kind: 'credential', excerpt: mask(secret) });
  }
  return findings;
}

/** Every string of a value (an item, a body), each with its path, so a finding says where it sits. */
export function textsOf(source: string, value: unknown): { source: string; text: string }[] {
  return [{ source, text: typeof value === 'string' ? value : JSON.stringify(value, (_, v: unknown) => (v instanceof Uint8Array ? `<${v.length} bytes>` : v)) }];
}
