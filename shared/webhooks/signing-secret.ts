/**
 * An endpoint's signing secret is made in one place: a whsec_ value shown to the merchant once (in the answer that
 * created or rotated it) and a SecretBox ciphertext bound to that endpoint, the only form that is stored.
 */
import type { SecretBox } from '../crypto/secret-box.ts';
import { prefixedId } from '../ids.ts';
import { secretContext, type WebhookEndpoint } from './endpoint.ts';

export interface SealedSigningSecret {
  /** whsec_...: for the answer only, never stored or logged. */
  secret: string;
  /** What WebhookEndpoint.secretCiphertext holds; send-webhooks opens it with the same secretContext. */
  secretCiphertext: string;
}

/**
 * A new signing secret for the endpoint, sealed for it.
 *
 * @example
 * const { secret, secretCiphertext } = await newSigningSecret(deps.secretBox, { id: 'we_1', merchantId: 'mer_1' });
 */
export async function newSigningSecret(secretBox: SecretBox, endpoint: Pick<WebhookEndpoint, 'id' | 'merchantId'>): Promise<SealedSigningSecret> {
  const secret = prefixedId('whsec');
  return { secret, secretCiphertext: await secretBox.encrypt(secret, secretContext(endpoint)) };
}
