/**
 * The caller's IP address. Behind our CloudFront sites (checkout, dashboard) API Gateway's source address is an edge
 * server's, shared by everyone that edge serves; their API behaviours set X-Svc-Client-Ip to the viewer's address
 * (a CloudFront Function, infra/constructs/static-site.ts) and the WAF blocks the header on any request that does not
 * carry our edge's marker (infra/constructs/api-firewall.ts), so where it is present it is the client's. Elsewhere
 * (a merchant's server calling the API directly) the source address is the client's.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';

export const CLIENT_IP_HEADER = 'x-svc-client-ip';
/** Sent by CloudFront to the API origin with a rotated secret (infra/constructs/edge-marker.ts): the WAF's proof a request came through us. */
export const EDGE_MARKER_HEADER = 'x-svc-edge';

const headerValue = (headers: APIGatewayProxyEvent['headers'] | null | undefined, name: string): string | undefined =>
  Object.entries(headers ?? {}).find(([key]) => key.toLowerCase() === name)?.[1]?.trim() || undefined;

export function clientAddress(event: Pick<APIGatewayProxyEvent, 'headers' | 'requestContext'>): string {
  return headerValue(event.headers, CLIENT_IP_HEADER) ?? event.requestContext?.identity?.sourceIp ?? '';
}

/**
 * Whether the address is this machine's: only the sandbox sees such callers (its own page, its tests, the developer),
 * never an API stage behind API Gateway.
 */
export const isLoopback = (address: string): boolean => /^(127\.|::1$|::ffff:127\.)/i.test(address);
