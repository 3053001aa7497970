/**
 * Webhook endpoints as the domain sees them: their settings, the credentials that travel only encrypted, the
 * rules of each authType, and what merchants are shown. Pure: no I/O.
 */
import type { EventType } from '../domain/events.ts';
import type { Mode } from '../domain/session-state.ts';
import { classifyAddress, isThisMachine } from './address-policy.ts';
import { AUTH_FIELDS, AUTH_SETTING_NAMES, CREDENTIAL_NAMES, OPTIONAL_SETTINGS, type AuthType } from './auth-fields.ts';

export { AUTH_TYPES, type AuthType } from './auth-fields.ts';
export const ENDPOINT_STATUSES = ['enabled', 'disabled'] as const;
export type EndpointStatus = (typeof ENDPOINT_STATUSES)[number];

/** The secrets of an endpoint's outbound authentication: stored only as one SecretBox ciphertext. */
export interface EndpointCredentials {
  authToken?: string;
  authUsername?: string;
  authPassword?: string;
  oauthClientSecret?: string;
}

/** Settings that are not secret and are shown back to the merchant. */
export interface EndpointSettings {
  url: string;
  enabledEvents: EventType[];
  description: string | null;
  status: EndpointStatus;
  authType: AuthType;
  authHeaderName: string | null;
  oauthTokenUrl: string | null;
  oauthClientId: string | null;
  oauthScope: string | null;
}

export interface CredentialFlags {
  hasAuthToken: boolean;
  hasBasicAuth: boolean;
  hasOAuthClientSecret: boolean;
}

export interface WebhookEndpoint extends EndpointSettings, CredentialFlags {
  id: string;
  merchantId: string;
  mode: Mode;
  /** SecretBox ciphertext of the whsec_... signing secret. */
  secretCiphertext: string;
  /** SecretBox ciphertext of the JSON of EndpointCredentials; null when there are none. */
  credentialsCiphertext: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export type WebhookEndpointResource = EndpointSettings & CredentialFlags & { id: string; mode: Mode; createdAt: string; updatedAt: string };

export const credentialFlags = (c: EndpointCredentials): CredentialFlags => ({
  hasAuthToken: Boolean(c.authToken),
  hasBasicAuth: Boolean(c.authUsername && c.authPassword),
  hasOAuthClientSecret: Boolean(c.oauthClientSecret),
});

/** Headers the service sets itself; an api_key header may not replace them. */
const RESERVED_HEADERS = new Set(['authorization', 'content-type', 'content-length', 'host', 'svc-signature', 'user-agent', 'connection', 'transfer-encoding']);

export interface AuthInput extends EndpointCredentials {
  authType?: AuthType;
  authHeaderName?: string;
  oauthTokenUrl?: string;
  oauthClientId?: string;
  oauthScope?: string;
}

export interface EndpointIssue {
  field: string;
  message: string;
}

/**
 * Applies an authentication change to what is stored. An omitted field is kept, "" deletes it, a value replaces
 * it; a field the resulting authType does not use is refused when sent and dropped when left over from the
 * previous type, so no unused secret stays stored. A stored credential never follows a change of where it goes:
 * when the url (`urlChanged`) or the oauthTokenUrl changes, every credential of the authType must be sent again.
 */
export function applyAuthChange(
  current: { settings: Pick<EndpointSettings, 'authType' | (typeof AUTH_SETTING_NAMES)[number]>; credentials: EndpointCredentials },
  input: AuthInput,
  { urlChanged = false }: { urlChanged?: boolean } = {},
): { settings: Pick<EndpointSettings, 'authType' | (typeof AUTH_SETTING_NAMES)[number]>; credentials: EndpointCredentials; issues: EndpointIssue[] } {
  const authType = input.authType ?? current.settings.authType;
  const allowed = AUTH_FIELDS[authType];
  const optional = OPTIONAL_SETTINGS[authType];
  const issues: EndpointIssue[] = [];
  const usesSetting = (name: (typeof AUTH_SETTING_NAMES)[number]) => (allowed.settings as string[]).includes(name) || optional === name;

  const settings = { authType, authHeaderName: null, oauthTokenUrl: null, oauthClientId: null, oauthScope: null } as ReturnType<typeof applyAuthChange>['settings'];
  for (const name of AUTH_SETTING_NAMES) {
    const sent = input[name];
    if (sent !== undefined && sent !== '' && !usesSetting(name)) issues.push({ field: name, message: `${name} is not used with authType ${authType}.` });
    if (!usesSetting(name)) continue;
    settings[name] = sent === undefined ? current.settings[name] : sent === '' ? null : sent;
  }
  const credentials: EndpointCredentials = {};
  for (const name of CREDENTIAL_NAMES) {
    const sent = input[name];
    const used = (allowed.credentials as string[]).includes(name);
    if (sent !== undefined && sent !== '' && !used) issues.push({ field: name, message: `${name} is not used with authType ${authType}.` });
    if (!used) continue;
    const value = sent === undefined ? current.credentials[name] : sent === '' ? undefined : sent;
    if (value !== undefined) credentials[name] = value;
  }
  const moved = urlChanged ? 'url' : current.settings.oauthTokenUrl !== null && settings.oauthTokenUrl !== current.settings.oauthTokenUrl ? 'oauthTokenUrl' : null;
  if (moved) {
    for (const name of allowed.credentials) {
      if (credentials[name] !== undefined && input[name] === undefined) {
        issues.push({ field: name, message: `${name} must be sent again when ${moved} changes: a stored credential is never sent to a new destination.` });
      }
    }
  }
  for (const name of allowed.settings) if (!settings[name]) issues.push({ field: name, message: `${name} is required with authType ${authType}.` });
  for (const name of allowed.credentials) if (!credentials[name]) issues.push({ field: name, message: `${name} is required with authType ${authType}.` });
  if (settings.authHeaderName && RESERVED_HEADERS.has(settings.authHeaderName.toLowerCase())) {
    issues.push({ field: 'authHeaderName', message: `authHeaderName cannot be ${settings.authHeaderName}: the service sets that header itself.` });
  }
  return { settings, credentials, issues };
}

/**
 * Endpoint URLs are https to public addresses. Only the sandbox (allowLoopbackHttp, never set in AWS) also reaches
 * its own machine, named as such (127.0.0.0/8, ::1, localhost), over https or http alike, so a developer can receive
 * webhooks locally. A literal address is judged now (an IPv6 form carrying an IPv4 address by that IPv4); any other
 * name is accepted for https now and its every resolved address must be public on each send (isAllowedAddress).
 */
export function endpointUrlIssue(value: string, { allowLoopbackHttp }: { allowLoopbackHttp: boolean }): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be a valid URL';
  }
  if (url.username || url.password) return 'must not contain credentials; use authType instead';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const kind = host === 'localhost' ? 'loopback' : classifyAddress(host);
  // Only the machine itself, named as such: a transition form that embeds 127.0.0.1 routes elsewhere.
  const thisMachine = host === 'localhost' || (kind === 'loopback' && isThisMachine(host));
  if (url.protocol !== 'https:' && !(allowLoopbackHttp && url.protocol === 'http:' && thisMachine)) return 'must be an https URL';
  if (kind === 'invalid' || kind === 'public' || (allowLoopbackHttp && thisMachine)) return null;
  return 'must point to a public address';
}

/** The settings the audit log records old and new values of; credentials are named only, never their values. */
const AUDITED_SETTINGS = ['url', 'status', 'description', 'enabledEvents', 'authType', 'authHeaderName', 'oauthTokenUrl', 'oauthClientId', 'oauthScope'] as const;

/**
 * What an update changed, for its audit entry: each setting that changed as { from, to }, and the names of the
 * credentials the request replaced or deleted.
 *
 * @example
 * endpointChanges(before, after, { url: 'https://b.example/h', authToken: 't2' })
 * // { url: { from: 'https://a.example/h', to: 'https://b.example/h' }, credentialsReplaced: ['authToken'] }
 */
export function endpointChanges(before: EndpointSettings, after: EndpointSettings, input: AuthInput): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  for (const name of AUDITED_SETTINGS) {
    if (JSON.stringify(before[name]) !== JSON.stringify(after[name])) changes[name] = { from: before[name], to: after[name] };
  }
  const replaced = CREDENTIAL_NAMES.filter((name) => input[name] !== undefined);
  if (replaced.length > 0) changes.credentialsReplaced = replaced;
  return changes;
}

export const toEndpointResource = (e: WebhookEndpoint): WebhookEndpointResource => ({
  id: e.id,
  mode: e.mode,
  url: e.url,
  enabledEvents: e.enabledEvents,
  description: e.description,
  status: e.status,
  authType: e.authType,
  authHeaderName: e.authHeaderName,
  oauthTokenUrl: e.oauthTokenUrl,
  oauthClientId: e.oauthClientId,
  oauthScope: e.oauthScope,
  hasAuthToken: e.hasAuthToken,
  hasBasicAuth: e.hasBasicAuth,
  hasOAuthClientSecret: e.hasOAuthClientSecret,
  createdAt: e.createdAt,
  updatedAt: e.updatedAt,
});

/** The encryption contexts bind each ciphertext to its endpoint, so it cannot be copied onto another one. */
export const secretContext = (e: Pick<WebhookEndpoint, 'id' | 'merchantId'>) => ({ merchantId: e.merchantId, endpointId: e.id, purpose: 'webhook_signing_secret' });
export const credentialsContext = (e: Pick<WebhookEndpoint, 'id' | 'merchantId'>) => ({ merchantId: e.merchantId, endpointId: e.id, purpose: 'webhook_credentials' });
