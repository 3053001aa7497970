/** The header each authType adds to a webhook (the spec's table). Pure; the signature is added under every type. */
import type { EndpointCredentials, EndpointSettings } from './endpoint.ts';

/**
 * @example
 * outboundAuthHeaders({ authType: 'api_key', authHeaderName: 'X-Api-Key' }, { authToken: 't0k' }) // { 'X-Api-Key': 't0k' }
 */
export function outboundAuthHeaders(
  endpoint: Pick<EndpointSettings, 'authType' | 'authHeaderName'>,
  credentials: EndpointCredentials,
  oauthAccessToken?: string,
): Record<string, string> {
  switch (endpoint.authType) {
    case 'none':
      return {};
    case 'bearer':
      return { Authorization: `Bearer ${credentials.authToken ?? ''}` };
    case 'basic':
      return { Authorization: `Basic ${Buffer.from(`${credentials.authUsername ?? ''}:${credentials.authPassword ?? ''}`).toString('base64')}` };
    case 'api_key':
      return { [endpoint.authHeaderName ?? 'X-Api-Key']: credentials.authToken ?? '' };
    case 'oauth2':
      return { Authorization: `Bearer ${oauthAccessToken ?? ''}` };
  }
}
