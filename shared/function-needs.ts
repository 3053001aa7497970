/**
 * What a function needs beyond the table, declared on its manifest entry (shared/routes.ts, shared/workers.ts) so
 * the stack grants exactly that and no hand-kept list can drift from the code:
 * - secrets: opens or seals SecretBox ciphertexts (bank credentials, card numbers, webhook secrets and credentials).
 * - fingerprints: computes card fingerprints (the card vault's keyed HMAC).
 * - gateways: calls a bank or card processor (GATEWAY_*_URL).
 *
 * @example
 * const entry = { entry: 'functions/checkout/create-charge.ts', needs: ['secrets', 'fingerprints', 'gateways'] };
 */
export type FunctionNeed = 'secrets' | 'fingerprints' | 'gateways';
