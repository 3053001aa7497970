import { auditEntry } from '../../shared/domain/audit-entry.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { signedInUser } from '../../shared/dashboard/signed-in-user.ts';
import { testModeRequestProblem, type TestModeRequest } from '../../shared/domain/test-mode-request.ts';
import { ConflictError } from '../../shared/errors.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { TestModeRequestBodySchema } from '../../shared/schemas/dashboard-schemas.ts';
import { settingsView, testModeRequestsOf } from '../../shared/dashboard/settings-view.ts';

/** POST /v1/dashboard/test-mode-requests: the request (replacing a pending one) and its audit entry, one transaction. */
export const { build, handler, schemas } = defineApiHandler(
  manifest.createTestModeRequest,
  { body: TestModeRequestBodySchema },
  async (req, deps) => {
    const actor = signedInUser(req.auth);
    const { gateway, enabled } = req.body;
    const problem = testModeRequestProblem(gateway, enabled);
    if (problem) throw new ConflictError('test_mode_unsupported', problem);
    const request: TestModeRequest = { merchantId: actor.merchantId, gateway, enabled, status: 'pending', requestedAt: new Date(req.now).toISOString(), requestedBy: actor.email, decidedAt: null };
    await testModeRequestsOf(deps).put(request, [deps.audit.entryPut(auditEntry(actor, req.now, 'test_mode.requested', gateway, { enabled }))]);
    const merchant = (await deps.merchants.get(actor.merchantId)) ?? req.auth.merchant;
    return { statusCode: 202, body: await settingsView(deps, merchant) };
  },
  { userTokens: userTokensFromEnvironment },
);
