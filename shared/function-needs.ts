/**
 * What a function needs beyond the table, declared on its manifest entry (shared/routes.ts, shared/workers.ts) so
 * the stack grants exactly that and no hand-kept list can drift from the code:
 * - secrets: opens or seals SecretBox ciphertexts other than card numbers (bank credentials, webhook secrets and
 *   credentials).
 * - cardNumbers: opens or seals card numbers (the vault's users only; KMS tells them apart by encryption context).
 * - fingerprints: computes card fingerprints (the card vault's keyed HMAC).
 * - gateways: calls a bank or card processor (GATEWAY_*_URL).
 * - userPool: signs dashboard users in or manages their logins (the Cognito user pool's admin actions it calls).
 *
 * @example
 * const entry = { entry: 'functions/checkout/create-charge.ts', needs: ['secrets', 'fingerprints', 'gateways'] };
 */
export type FunctionNeed = 'secrets' | 'cardNumbers' | 'fingerprints' | 'gateways' | 'userPool';
