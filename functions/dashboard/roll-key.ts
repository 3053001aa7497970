import { newKeyRecord } from '../../shared/admin/merchant-admin.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { auditEntry } from '../../shared/domain/audit-entry.ts';
import { signedInUser } from '../../shared/dashboard/signed-in-user.ts';
import { ConflictError } from '../../shared/errors.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { KeyIdParamsSchema } from '../../shared/schemas/dashboard-schemas.ts';
import { ConditionFailedError } from '../../shared/store/conditions.ts';
import { findManagedKey, toKeySummary } from '../../shared/dashboard/key-access.ts';

/**
 * POST /v1/dashboard/keys/{id}/roll: a new key of the same kind and mode, the old one revoked and the audit entry,
 * in one transaction. The new key is in this answer only (the table keeps its hash), remembers who minted it, and
 * a live secret key is rolled by admins only (key-access.ts).
 */
export const { build, handler, schemas } = defineApiHandler(
  manifest.rollDashboardKey,
  { params: KeyIdParamsSchema },
  async (req, deps) => {
    const actor = signedInUser(req.auth);
    const old = await findManagedKey(deps, actor, req.params.id);
    const minted = newKeyRecord(actor.merchantId, old.kind, old.mode, new Date(req.now));
    // What the new key does is recorded under the user who minted it (shared/http/middlewares/audit-user-change.ts).
    const record = { ...minted.record, createdBy: { userId: actor.id, email: actor.email } };
    const entry = auditEntry(actor, req.now, 'key.rolled', old.keyHash, { kind: old.kind, mode: old.mode, old: old.hint, new: record.hint, newKeyId: record.keyHash });
    try {
      await deps.apiKeys.commit([deps.apiKeys.revokeItem(old.keyHash), deps.apiKeys.createItem(record), deps.audit.entryPut(entry)]);
    } catch (error) {
      if (error instanceof ConditionFailedError) throw new ConflictError('key_revoked', 'This key is revoked: roll an active key instead.');
      throw error;
    }
    return { statusCode: 201, body: { key: toKeySummary(record), secret: minted.key } };
  },
  { userTokens: userTokensFromEnvironment },
);
