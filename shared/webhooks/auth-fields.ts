/**
 * The outbound authentication types of a webhook endpoint and the fields each one uses, with no imports: the API's
 * rules (shared/webhooks/endpoint.ts) and the dashboard's endpoint form read the same table.
 *
 * @example
 * authFieldNames('oauth2'); // ['oauthTokenUrl', 'oauthClientId', 'oauthClientSecret', 'oauthScope']
 */
export const AUTH_TYPES = ['none', 'bearer', 'basic', 'api_key', 'oauth2'] as const;
export type AuthType = (typeof AUTH_TYPES)[number];

/** Secrets: stored only encrypted, never returned (a form leaves them empty and says whether one is stored). */
export const CREDENTIAL_NAMES = ['authToken', 'authUsername', 'authPassword', 'oauthClientSecret'] as const;
export type CredentialName = (typeof CREDENTIAL_NAMES)[number];
export const AUTH_SETTING_NAMES = ['authHeaderName', 'oauthTokenUrl', 'oauthClientId', 'oauthScope'] as const;
export type AuthSettingName = (typeof AUTH_SETTING_NAMES)[number];

/** Which credential and setting fields each authType needs; any other auth field is refused. */
export const AUTH_FIELDS: Record<AuthType, { credentials: CredentialName[]; settings: Exclude<AuthSettingName, 'oauthScope'>[] }> = {
  none: { credentials: [], settings: [] },
  bearer: { credentials: ['authToken'], settings: [] },
  basic: { credentials: ['authUsername', 'authPassword'], settings: [] },
  api_key: { credentials: ['authToken'], settings: ['authHeaderName'] },
  oauth2: { credentials: ['oauthClientSecret'], settings: ['oauthTokenUrl', 'oauthClientId'] },
};
/** Settings an authType accepts without needing them. */
export const OPTIONAL_SETTINGS: Partial<Record<AuthType, 'oauthScope'>> = { oauth2: 'oauthScope' };

/** Every field an authType uses, in the order a form asks for them: settings, credentials, then the optional one. */
export function authFieldNames(authType: AuthType): (CredentialName | AuthSettingName)[] {
  const { credentials, settings } = AUTH_FIELDS[authType];
  const optional = OPTIONAL_SETTINGS[authType];
  return [...settings, ...credentials, ...(optional ? [optional] : [])];
}
