import { bankCredentialsContext } from '../admin/bank-credentials.ts';
import { GATEWAYS, gatewayModeConflict, type Merchant } from '../domain/merchant.ts';
import type { Session } from '../domain/session.ts';
import type { PaymentDeps } from '../deps.ts';
import { ConflictError } from '../errors.ts';
import type { BankAccount } from '../gateways/payment-gateway.ts';

/**
 * Test sessions charge the bank's test environment; live ones need the merchant's loaded credentials and never
 * fall back to the test environment. Refusals here are 409s that never become attempts.
 */
export async function bankAccountFor(deps: PaymentDeps, merchant: Merchant, session: Pick<Session, 'mode' | 'gateway' | 'currency'>): Promise<BankAccount> {
  const conflict = gatewayModeConflict(merchant, session.mode, session.gateway, session.currency);
  if (conflict) throw new ConflictError(conflict.code, conflict.message);
  // A network whose test environment authenticates (Mercantil's sandbox) is sent the merchant's loaded credentials.
  if (session.mode === 'test' && !GATEWAYS[session.gateway].testNeedsCredentials) return { environment: 'test', credentials: null };
  const ciphertext = merchant.credentialsLoaded[session.gateway] ? await deps.merchants.getCredentials(merchant.id, session.gateway) : null;
  if (!ciphertext) {
    throw new ConflictError(
      'bank_credentials_missing',
      session.mode === 'live'
        ? `No live bank credentials are loaded for the ${session.gateway} gateway, so live charges cannot be made yet. Live charges never fall back to the test environment.`
        : `No bank credentials are loaded for the ${session.gateway} gateway, whose test environment needs the merchant's own, so test charges cannot be made yet.`,
    );
  }
  const credentials = await deps.secretBox.decrypt(ciphertext, bankCredentialsContext(merchant.id, session.gateway));
  return { environment: session.mode, credentials };
}
