/**
 * The sandbox's controls change its state (the clock, the bank, a resend) without a key: only the developer's own
 * tools may call them, never a page on another site the developer happens to open. A browser marks a request from
 * elsewhere with Origin and Sec-Fetch-Site; and a page elsewhere can send JSON only after a CORS preflight, which
 * the sandbox never grants. curl and test clients send neither header. Sandbox only.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { IncomingMessage } from 'node:http';
import { errorBody, jsonResponse } from '../../shared/http/response.ts';

/**
 * Why a request to a sandbox control is refused, or null when it may go on: 403 cross_site_request for a foreign
 * Origin (or the opaque "null") or a Sec-Fetch-Site other than same-origin (or none); with `json`, 415 for any body
 * that is not application/json (what a form or a no-cors fetch sends).
 *
 * @example
 * const refused = crossSiteRefusal(req, { json: true });
 * if (refused) return send(res, refused);
 */
export function crossSiteRefusal(req: IncomingMessage, { json }: { json: boolean }): APIGatewayProxyResult | null {
  const origin = req.headers.origin;
  const site = req.headers['sec-fetch-site'];
  const ownOrigin = `http://${req.headers.host ?? ''}`;
  if ((origin !== undefined && origin !== ownOrigin) || (site !== undefined && site !== 'same-origin' && site !== 'none')) {
    return jsonResponse(403, errorBody(403, 'cross_site_request', 'Sandbox controls answer only the sandbox itself and tools like curl, not a page of another site.'));
  }
  const mediaType = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (json && mediaType !== 'application/json') {
    return jsonResponse(415, errorBody(415, 'unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.'));
  }
  return null;
}
