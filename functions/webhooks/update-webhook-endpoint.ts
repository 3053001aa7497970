import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { UpdateWebhookEndpointBodySchema, WebhookEndpointParamsSchema } from '../../shared/schemas/webhook-schemas.ts';
import { endpointChanges, toEndpointResource, type WebhookEndpoint } from '../../shared/webhooks/endpoint.ts';
import { checkEndpointUrl, readCredentials, resolveAuth } from '../../shared/webhooks/endpoint-auth.ts';
import { findEndpoint, saveEndpoint } from '../../shared/webhooks/webhook-access.ts';
import { cryptoFromEnvironment } from '../../shared/crypto/create-crypto.ts';

const AUTH_FIELDS = ['authType', 'authToken', 'authUsername', 'authPassword', 'authHeaderName', 'oauthTokenUrl', 'oauthClientId', 'oauthClientSecret', 'oauthScope'] as const;

export const { build, handler, schemas } = defineApiHandler(
  manifest.updateWebhookEndpoint,
  {
    params: WebhookEndpointParamsSchema,
    body: UpdateWebhookEndpointBodySchema,
  },
  async (req, deps) => {
    const endpoint = await findEndpoint(deps, req.auth, req.params.id);
    const { body } = req;
    if (body.url !== undefined) checkEndpointUrl(deps, body.url, 'url');
    // A new url is a new destination for the credentials: they must come again (resolveAuth says which).
    const urlChanged = body.url !== undefined && body.url !== endpoint.url;
    // Credentials are opened only when the authentication or the url changes; otherwise the ciphertext stays as it is.
    const authChanged = urlChanged || AUTH_FIELDS.some((field) => body[field] !== undefined);
    const auth = authChanged ? await resolveAuth(deps, endpoint, { settings: endpoint, credentials: await readCredentials(deps, endpoint) }, body, { urlChanged }) : {};
    const next: WebhookEndpoint = {
      ...endpoint,
      ...auth,
      url: body.url ?? endpoint.url,
      enabledEvents: body.enabledEvents ? [...new Set(body.enabledEvents)] : endpoint.enabledEvents,
      description: body.description === undefined ? endpoint.description : body.description || null,
      status: body.status ?? endpoint.status,
      updatedAt: new Date(req.now).toISOString(),
      version: endpoint.version + 1,
    };
    await saveEndpoint(deps, next, endpoint.version);
    return { statusCode: 200, body: toEndpointResource(next), auditDetail: endpointChanges(endpoint, next, body) };
  },
  { crypto: cryptoFromEnvironment, userTokens: userTokensFromEnvironment },
);
