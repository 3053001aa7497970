import { createHash } from 'node:crypto';
import { canonicalJson } from '../../shared/http/middlewares/idempotency.ts';

const ALGORITHMS = ['md5', 'sha1', 'sha256'] as const;

/** A request the test sent that carried card data: what an attacker with the table would try to hash. */
export interface SentCardRequest {
  method: string;
  path: string;
  body: Record<string, unknown>;
}

/**
 * Every unkeyed derivative of the card data the test sent: MD5, SHA-1 and SHA-256, in hex and base64, of each card
 * number (as typed and as digits), each CVV, each field object holding them, and each whole body (as sent, canonical,
 * and with the method and path before it, as an idempotency fingerprint would hash it). Found anywhere in storage,
 * logs or events, one of these lets an attacker confirm a guessed number or CVV offline (PCI DSS 3.3.1.2, 3.5.1.1).
 */
export function cardDerivatives(requests: SentCardRequest[]): Map<string, string> {
  const inputs = new Map<string, string>();
  for (const { method, path, body } of requests) {
    const card = body.card as Record<string, unknown> | undefined;
    for (const [name, value] of Object.entries(card ?? {})) {
      if (name !== 'number' && name !== 'cvv') continue;
      inputs.set(`card.${name} ${String(value)}`, String(value));
      inputs.set(`card.${name} digits ${String(value)}`, String(value).replace(/\D/g, ''));
    }
    if (card) {
      inputs.set(`card object ${JSON.stringify(card)}`, JSON.stringify(card));
      inputs.set(`card object canonical ${JSON.stringify(card)}`, canonicalJson(card));
    }
    for (const [label, text] of [
      ['body', JSON.stringify(body)],
      ['canonical body', canonicalJson(body)],
    ] as const) {
      inputs.set(`${label} ${JSON.stringify(body)}`, text);
      inputs.set(`${method} ${path} + ${label} ${JSON.stringify(body)}`, `${method} ${path}\n${text}`);
      inputs.set(`${method} ${path} + ${label} (space) ${JSON.stringify(body)}`, `${method} ${path} ${text}`);
    }
  }
  const derivatives = new Map<string, string>();
  for (const [label, input] of inputs) {
    if (!input) continue;
    for (const algorithm of ALGORITHMS) {
      const digest = createHash(algorithm).update(input, 'utf8').digest();
      derivatives.set(digest.toString('hex'), `${algorithm} hex of ${label}`);
      derivatives.set(digest.toString('base64'), `${algorithm} base64 of ${label}`);
      derivatives.set(digest.toString('base64url'), `${algorithm} base64url of ${label}`);
    }
  }
  return derivatives;
}

/** The texts that hold one of the derivatives, case-insensitively for hex, with what each one is. */
export function findDerivatives(texts: { source: string; text: string }[], derivatives: Map<string, string>): { source: string; derivative: string }[] {
  const findings: { source: string; derivative: string }[] = [];
  for (const { source, text } of texts) {
    const lower = text.toLowerCase();
    for (const [value, what] of derivatives) {
      const isHex = /^[0-9a-f]+$/.test(value);
      if (isHex ? lower.includes(value) : text.includes(value)) findings.push({ source, derivative: what });
    }
  }
  return findings;
}
