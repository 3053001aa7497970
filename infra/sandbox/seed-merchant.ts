/**
 * The merchant `npm start` creates in a fresh SANDBOX_DIR. Its keys are kept in a local file (mode 0600): only their
 * hashes are in the table, and a restart prints the same keys again.
 *
 * @example
 * const { merchantId, keys } = await seedSandboxMerchant(sandbox.deps, join(dataDir, 'merchant.json'), new Date());
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createMerchant, type AdminStores, type MerchantKeys } from '../../shared/admin/merchant-admin.ts';

/** Buyers read it on the checkout, which is in Spanish (`merchant branding --business-name` changes it). */
export const SEEDED_MERCHANT_NAME = 'Tienda de prueba';

export interface SeededMerchant {
  merchantId: string;
  keys: MerchantKeys;
}

/** The merchant of `file`, or a new one written there: a sandbox seeded before keeps its merchant and name. */
export async function seedSandboxMerchant(stores: AdminStores, file: string, now: Date): Promise<SeededMerchant> {
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as SeededMerchant;
  const { merchant, keys } = await createMerchant(stores, { name: SEEDED_MERCHANT_NAME, now });
  const seeded = { merchantId: merchant.id, keys };
  writeFileSync(file, JSON.stringify(seeded, null, 2), { mode: 0o600 });
  return seeded;
}
