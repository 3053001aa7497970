/**
 * A merchant's live bank credentials per gateway: sealed with the SecretBox and bound to their merchant and gateway,
 * so a ciphertext copied onto another merchant's item does not open.
 */
import type { SecretBox } from '../crypto/secret-box.ts';
import { connectorOf } from '../connectors/registry.ts';
import type { GatewayId } from '../domain/merchant.ts';
import { ValidationError } from '../errors.ts';
import { AdminError } from './errors.ts';
import { requireMerchant, type AdminStores } from './merchant-admin.ts';

/**
 * The encryption context of a gateway's credentials; whoever decrypts them (the charge path) passes the same.
 *
 * @example
 * const credentials = JSON.parse(await deps.secretBox.decrypt(ciphertext, bankCredentialsContext(merchant.id, 'bank_direct')));
 */
export const bankCredentialsContext = (merchantId: string, gateway: GatewayId): Record<string, string> => ({
  merchantId,
  gateway,
  purpose: 'bank_credentials',
});

/**
 * Seals the credentials (a JSON object, as the bank issued them) and stores them with their load time `now`; the
 * merchant's credentialsLoaded flag for the gateway is set in the same transaction. Loading again replaces them.
 *
 * @example
 * await loadBankCredentials({ ...stores, secretBox }, 'mer_123', 'bank_direct', readFileSync('creds.json', 'utf8'));
 */
export async function loadBankCredentials(
  stores: AdminStores & { secretBox: SecretBox },
  merchantId: string,
  gateway: GatewayId,
  credentialsJson: string,
  now: number = Date.now(),
): Promise<void> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(credentialsJson);
  } catch {
    // The parser's message may quote the content: it is not passed on.
    throw new AdminError('The credentials file is not valid JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || Object.keys(parsed).length === 0) {
    throw new AdminError('The credentials file must hold a non-empty JSON object.');
  }
  checkAgainstConnector(gateway, parsed);
  await requireMerchant(stores.merchants, merchantId);
  const ciphertext = await stores.secretBox.encrypt(credentialsJson, bankCredentialsContext(merchantId, gateway));
  await stores.merchants.saveCredentials(merchantId, gateway, ciphertext, new Date(now).toISOString());
}

/**
 * The credentials as the gateway's connector needs them (its zod schema): a 400 credentials_invalid naming the first
 * missing or invalid field, never quoting a value.
 */
function checkAgainstConnector(gateway: GatewayId, credentials: unknown): void {
  const checked = connectorOf(gateway).credentials.safeParse(credentials);
  if (checked.success) return;
  const [issue] = checked.error.issues;
  const field = issue!.code === 'unrecognized_keys' ? issue!.keys[0]! : issue!.path.join('.');
  const given = issue!.path.reduce<unknown>((value, key) => (value as Record<PropertyKey, unknown> | undefined)?.[key], credentials);
  const problem = issue!.code === 'unrecognized_keys' ? 'is not one of its fields' : given === undefined ? 'is missing' : `is invalid (${issue!.message})`;
  throw new ValidationError(`The ${gateway} credentials are refused: ${field} ${problem}.`, field, 'credentials_invalid');
}
