import { cryptoFromEnvironment } from '../../shared/crypto/create-crypto.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { auditEntry } from '../../shared/domain/audit-entry.ts';
import { signedInUser } from '../../shared/dashboard/signed-in-user.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { WebhookEndpointParamsSchema } from '../../shared/schemas/webhook-schemas.ts';
import { toEndpointResource, type WebhookEndpoint } from '../../shared/webhooks/endpoint.ts';
import { newSigningSecret } from '../../shared/webhooks/signing-secret.ts';
import { findEndpoint, saveEndpoint } from '../../shared/webhooks/webhook-access.ts';

/**
 * POST /v1/dashboard/webhook-endpoints/{id}/rotate-secret: a new whsec_ signing secret, sealed like the first one and
 * shown once in this answer; deliveries sign with it from the next attempt (the sender opens the ciphertext it
 * reads). The audit entry follows the versioned save, which is not a transaction of ours.
 */
export const { build, handler, schemas } = defineApiHandler(
  manifest.rotateWebhookSecret,
  { params: WebhookEndpointParamsSchema },
  async (req, deps) => {
    const actor = signedInUser(req.auth);
    const endpoint = await findEndpoint(deps, req.auth, req.params.id);
    const { secret, secretCiphertext } = await newSigningSecret(deps.secretBox, endpoint);
    const next: WebhookEndpoint = {
      ...endpoint,
      secretCiphertext,
      updatedAt: new Date(req.now).toISOString(),
      version: endpoint.version + 1,
    };
    await saveEndpoint(deps, next, endpoint.version);
    await deps.audit.record(auditEntry(actor, req.now, 'webhook_endpoint.secret_rotated', endpoint.id));
    return { statusCode: 200, body: { ...toEndpointResource(next), secret } };
  },
  { crypto: cryptoFromEnvironment, userTokens: userTokensFromEnvironment },
);
