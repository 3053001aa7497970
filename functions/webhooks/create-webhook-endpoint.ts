import { ConflictError } from '../../shared/errors.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { prefixedId } from '../../shared/ids.ts';
import { CreateWebhookEndpointBodySchema } from '../../shared/schemas/webhook-schemas.ts';
import { toEndpointResource, type WebhookEndpoint } from '../../shared/webhooks/endpoint.ts';
import { newSigningSecret } from '../../shared/webhooks/signing-secret.ts';
import { checkEndpointUrl, resolveAuth } from '../../shared/webhooks/endpoint-auth.ts';
import { cryptoFromEnvironment } from '../../shared/crypto/create-crypto.ts';

/** Enough for any real integration; each endpoint adds a delivery to every event. */
export const MAX_ENDPOINTS_PER_MODE = 16;

const NO_AUTH = { settings: { authType: 'none', authHeaderName: null, oauthTokenUrl: null, oauthClientId: null, oauthScope: null }, credentials: {} } as const;

export const { build, handler, schemas } = defineApiHandler(
  manifest.createWebhookEndpoint,
  { body: CreateWebhookEndpointBodySchema },
  async (req, deps) => {
    const { merchant, mode } = req.auth;
    checkEndpointUrl(deps, req.body.url, 'url');
    const identity = { id: prefixedId('we'), merchantId: merchant.id };
    // Side by side: the count is a table Query, the sealing one or two KMS calls; none of them writes anything.
    const [count, auth, { secret, secretCiphertext }] = await Promise.all([
      deps.webhookEndpoints.count(merchant.id, mode),
      resolveAuth(deps, identity, { ...NO_AUTH, settings: { ...NO_AUTH.settings } }, req.body),
      newSigningSecret(deps.secretBox, identity),
    ]);
    if (count >= MAX_ENDPOINTS_PER_MODE) {
      throw new ConflictError('endpoint_limit_reached', `A merchant can register at most ${MAX_ENDPOINTS_PER_MODE} webhook endpoints per mode. Delete one first.`);
    }
    const now = new Date(req.now).toISOString();
    const endpoint: WebhookEndpoint = {
      ...identity,
      mode,
      url: req.body.url,
      enabledEvents: [...new Set(req.body.enabledEvents ?? [])],
      description: req.body.description || null,
      status: 'enabled',
      ...auth,
      secretCiphertext,
      createdAt: now,
      updatedAt: now,
      version: 1,
    };
    await deps.webhookEndpoints.create(endpoint);
    // The only time the secret leaves the service: it is stored encrypted and never shown again.
    return { statusCode: 201, body: { ...toEndpointResource(endpoint), secret } };
  },
  { crypto: cryptoFromEnvironment, userTokens: userTokensFromEnvironment },
);
