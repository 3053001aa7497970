import type { CoreDeps } from '../deps.ts';
import { createTestModeRequestStore, type TestModeRequestStore } from '../store/test-mode-request-store.ts';
import { logoPath } from '../domain/merchant-branding.ts';
import { GATEWAY_IDS, GATEWAYS, type Merchant } from '../domain/merchant.ts';

/** The test-mode requests store: only the settings routes use it, so it is not among every function's stores. */
export const testModeRequestsOf = (deps: CoreDeps): TestModeRequestStore => createTestModeRequestStore(deps.db, deps.config.tableName);

/** The settings page's view of a merchant: what it shows, never a secret (credentials are only "loaded" or not, and since when). */
export async function settingsView(deps: CoreDeps, merchant: Merchant) {
  const [requests, loadedAt] = await Promise.all([testModeRequestsOf(deps).listForMerchant(merchant.id), deps.merchants.credentialsLoadedAt(merchant.id)]);
  const per = <T>(value: (gateway: (typeof GATEWAY_IDS)[number]) => T) => Object.fromEntries(GATEWAY_IDS.map((g) => [g, value(g)]));
  return {
    businessName: merchant.businessName ?? null,
    logoUrl: merchant.logo ? logoPath(merchant.id, merchant.logo) : null,
    gateways: merchant.gateways,
    credentials: per((g) => {
      const loaded = merchant.credentialsLoaded[g] === true;
      return { loaded, loadedAt: loaded ? (loadedAt[g] ?? null) : null };
    }),
    testMode: per((g) => {
      const request = requests.find((r) => r.gateway === g);
      return {
        state: merchant.testMode[g] ? ('on' as const) : ('off' as const),
        supported: GATEWAYS[g].supportsTestMode,
        request: request ? { enabled: request.enabled, status: request.status, requestedAt: request.requestedAt, requestedBy: request.requestedBy, decidedAt: request.decidedAt } : null,
      };
    }),
  };
}
