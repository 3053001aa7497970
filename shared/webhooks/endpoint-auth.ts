import type { CoreDeps, PartsOf } from '../deps.ts';
import { ValidationError } from '../errors.ts';
import {
  applyAuthChange,
  credentialFlags,
  credentialsContext,
  endpointUrlIssue,
  type AuthInput,
  type EndpointCredentials,
  type WebhookEndpoint,
} from './endpoint.ts';

/** Refuses a url (or oauthTokenUrl) the sender would not reach: https only, public addresses in AWS. */
export function checkEndpointUrl(deps: CoreDeps & PartsOf<'crypto'>, value: string, field: 'url' | 'oauthTokenUrl'): void {
  const issue = endpointUrlIssue(value, { allowLoopbackHttp: deps.config.allowLoopbackWebhooks ?? false });
  if (issue) throw new ValidationError(`Invalid ${field}: ${issue}.`, field, 'parameter_invalid');
}

export async function readCredentials(deps: CoreDeps & PartsOf<'crypto'>, endpoint: WebhookEndpoint): Promise<EndpointCredentials> {
  if (!endpoint.credentialsCiphertext) return {};
  return JSON.parse(await deps.secretBox.decrypt(endpoint.credentialsCiphertext, credentialsContext(endpoint))) as EndpointCredentials;
}

/**
 * The authentication part of an endpoint after a create or a PATCH: settings, flags, and the credentials sealed
 * again with the SecretBox. Throws a 400 naming the first field in the way (a credential not sent again with a new
 * url or oauthTokenUrl among them).
 */
export async function resolveAuth(
  deps: CoreDeps & PartsOf<'crypto'>,
  identity: Pick<WebhookEndpoint, 'id' | 'merchantId'>,
  current: Parameters<typeof applyAuthChange>[0],
  input: AuthInput,
  change: Parameters<typeof applyAuthChange>[2] = {},
): Promise<Pick<WebhookEndpoint, 'authType' | 'authHeaderName' | 'oauthTokenUrl' | 'oauthClientId' | 'oauthScope' | 'credentialsCiphertext' | 'hasAuthToken' | 'hasBasicAuth' | 'hasOAuthClientSecret'>> {
  const { settings, credentials, issues } = applyAuthChange(current, input, change);
  const first = issues[0];
  if (first) throw new ValidationError(first.message, first.field, 'parameter_invalid');
  if (input.oauthTokenUrl && settings.oauthTokenUrl) checkEndpointUrl(deps, settings.oauthTokenUrl, 'oauthTokenUrl');
  const sealed = Object.keys(credentials).length > 0 ? await deps.secretBox.encrypt(JSON.stringify(credentials), credentialsContext(identity)) : null;
  return { ...settings, credentialsCiphertext: sealed, ...credentialFlags(credentials) };
}
