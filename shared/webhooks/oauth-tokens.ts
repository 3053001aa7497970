/**
 * OAuth2 client_credentials tokens for endpoints with authType oauth2, cached per endpoint until shortly before
 * they expire. The cache key includes the credentials, so a rotated secret never reuses an old token.
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../clock.ts';
import type { PartsFactory } from '../deps.ts';
import type { EndpointCredentials, EndpointSettings } from './endpoint.ts';
import { createHttpPost, type HttpPost } from './http-post.ts';

/** A token is dropped this long before its stated expiry, so it never expires on the way. */
export const TOKEN_EXPIRY_MARGIN_MS = 60_000;
/** When the token server states no lifetime. */
export const DEFAULT_TOKEN_LIFETIME_MS = 5 * 60_000;

const MAX_TOKEN_RESPONSE_CHARS = 16_384;

export class OAuthTokenError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OAuthTokenError';
  }
}

export interface OAuthTokenSource {
  /** `refresh` skips the cache: after the receiver answered 401 to a cached token. */
  token(endpointId: string, settings: Pick<EndpointSettings, 'oauthTokenUrl' | 'oauthClientId' | 'oauthScope'>, credentials: EndpointCredentials, options?: { refresh?: boolean }): Promise<string>;
}

export function createOAuthTokenSource(post: HttpPost, clock: Clock): OAuthTokenSource {
  const cache = new Map<string, { accessToken: string; expiresAt: number }>();
  return {
    async token(endpointId, settings, credentials, { refresh = false } = {}) {
      const key = `${endpointId}:${createHash('sha256').update(JSON.stringify([settings.oauthTokenUrl, settings.oauthClientId, settings.oauthScope, credentials.oauthClientSecret])).digest('hex')}`;
      const hit = cache.get(key);
      if (!refresh && hit && hit.expiresAt > clock.now()) return hit.accessToken;
      const form = new URLSearchParams({ grant_type: 'client_credentials' });
      if (settings.oauthScope) form.set('scope', settings.oauthScope);
      // client_secret_basic: the method every token server must support (RFC 6749, 2.3.1).
      const basic = Buffer.from(`${encodeURIComponent(settings.oauthClientId ?? '')}:${encodeURIComponent(credentials.oauthClientSecret ?? '')}`).toString('base64');
      const answer = await post(settings.oauthTokenUrl ?? '', {
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json', Authorization: `Basic ${basic}` },
        body: form.toString(),
        maxResponseChars: MAX_TOKEN_RESPONSE_CHARS,
      });
      if (answer.statusCode < 200 || answer.statusCode > 299) throw new OAuthTokenError(`The token endpoint answered ${answer.statusCode}.`);
      let parsed: { access_token?: unknown; expires_in?: unknown };
      try {
        parsed = JSON.parse(answer.excerpt) as typeof parsed;
      } catch (error) {
        throw new OAuthTokenError('The token endpoint did not answer JSON.', { cause: error });
      }
      if (typeof parsed.access_token !== 'string' || parsed.access_token === '') throw new OAuthTokenError('The token endpoint sent no access_token.');
      const lifetime = typeof parsed.expires_in === 'number' ? parsed.expires_in * 1000 : DEFAULT_TOKEN_LIFETIME_MS;
      cache.set(key, { accessToken: parsed.access_token, expiresAt: clock.now() + lifetime - TOKEN_EXPIRY_MARGIN_MS });
      return parsed.access_token;
    },
  };
}

/** The webhook sender's outbound HTTP in AWS: loopback, private, link-local and metadata addresses are refused. */
export const webhookHttpFromEnvironment: PartsFactory<'webhookHttp'> = (_env, { clock }) => {
  const httpPost = createHttpPost({ allowLoopback: false });
  return { httpPost, oauthTokens: createOAuthTokenSource(httpPost, clock) };
};
