import { auditEntry } from '../../shared/domain/audit-entry.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { signedInUser } from '../../shared/dashboard/signed-in-user.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { KeyIdParamsSchema } from '../../shared/schemas/dashboard-schemas.ts';
import { ConditionFailedError } from '../../shared/store/conditions.ts';
import { findManagedKey, toKeySummary } from '../../shared/dashboard/key-access.ts';

/**
 * POST /v1/dashboard/keys/{id}/revoke: revocation and audit entry in one transaction; a revoked key answers as it is.
 * A live secret key is revoked by admins only (key-access.ts).
 */
export const { build, handler, schemas } = defineApiHandler(
  manifest.revokeDashboardKey,
  { params: KeyIdParamsSchema },
  async (req, deps) => {
    const actor = signedInUser(req.auth);
    const key = await findManagedKey(deps, actor, req.params.id);
    const entry = auditEntry(actor, req.now, 'key.revoked', key.keyHash, { kind: key.kind, mode: key.mode, key: key.hint });
    try {
      await deps.apiKeys.commit([deps.apiKeys.revokeItem(key.keyHash), deps.audit.entryPut(entry)]);
    } catch (error) {
      // Already revoked: nothing changed, nothing to record.
      if (!(error instanceof ConditionFailedError)) throw error;
    }
    return { statusCode: 200, body: { key: { ...toKeySummary(key), status: 'revoked' as const } } };
  },
  { userTokens: userTokensFromEnvironment },
);
