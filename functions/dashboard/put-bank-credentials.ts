import { loadBankCredentials } from '../../shared/admin/bank-credentials.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { auditEntry } from '../../shared/domain/audit-entry.ts';
import { signedInUser } from '../../shared/dashboard/signed-in-user.ts';
import { cryptoFromEnvironment } from '../../shared/crypto/create-crypto.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { BankCredentialsBodySchema, GatewayParamsSchema } from '../../shared/schemas/dashboard-schemas.ts';

/**
 * PUT /v1/dashboard/bank-credentials/{gateway}: sealed and stored as the admin CLI does (write-only: no route
 * answers them). The audit entry, without the credentials, follows the sealed write (its own transaction).
 */
export const { build, handler, schemas } = defineApiHandler(
  manifest.putDashboardBankCredentials,
  {
    params: GatewayParamsSchema,
    body: BankCredentialsBodySchema,
  },
  async (req, deps) => {
    const actor = signedInUser(req.auth);
    await loadBankCredentials(deps, actor.merchantId, req.params.gateway, JSON.stringify(req.body), req.now);
    await deps.audit.record(auditEntry(actor, req.now, 'bank_credentials.loaded', req.params.gateway));
    return { statusCode: 200, body: { gateway: req.params.gateway, loaded: true as const } };
  },
  { crypto: cryptoFromEnvironment, userTokens: userTokensFromEnvironment },
);
