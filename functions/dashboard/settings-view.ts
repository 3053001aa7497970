import type { Deps } from '../../shared/deps.ts';
import { logoPath } from '../../shared/domain/merchant-branding.ts';
import { GATEWAY_IDS, GATEWAYS, type Merchant } from '../../shared/domain/merchant.ts';

/** The settings page's view of a merchant: what it shows, never a secret (credentials are only "loaded" or not). */
export async function settingsView(deps: Deps, merchant: Merchant) {
  const requests = await deps.testModeRequests.listForMerchant(merchant.id);
  const per = <T>(value: (gateway: (typeof GATEWAY_IDS)[number]) => T) => Object.fromEntries(GATEWAY_IDS.map((g) => [g, value(g)]));
  return {
    businessName: merchant.businessName ?? null,
    logoUrl: merchant.logo ? logoPath(merchant.id, merchant.logo) : null,
    gateways: merchant.gateways,
    credentials: per((g) => ({ loaded: merchant.credentialsLoaded[g] === true })),
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
