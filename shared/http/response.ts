import type { APIGatewayProxyResult } from 'aws-lambda';
import { reasonPhrase, type FieldProblem } from '../errors.ts';

/** Headers on every API answer: JSON only, never cached, never framed or sniffed. */
export const SECURITY_HEADERS: Record<string, string> = {
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
  'Strict-Transport-Security': 'max-age=63072000; includeSubDomains; preload',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
};

export function jsonResponse(statusCode: number, body: unknown, headers: Record<string, string> = {}): APIGatewayProxyResult {
  return jsonTextResponse(statusCode, JSON.stringify(body), headers);
}

/** JSON already serialised: an idempotent replay answers the stored text byte for byte. */
export function jsonTextResponse(statusCode: number, json: string, headers: Record<string, string> = {}): APIGatewayProxyResult {
  return { statusCode, headers: { 'Content-Type': 'application/json; charset=utf-8', ...SECURITY_HEADERS, ...headers }, body: json };
}

/**
 * Bytes (a logo) instead of JSON: base64 with isBase64Encoded, which API Gateway turns back into bytes for the media
 * types the API declares binary (infra/constructs/api.ts). `headers` set the Content-Type and may set caching.
 */
export function bytesResponse(statusCode: number, bytes: Uint8Array, headers: Record<string, string>): APIGatewayProxyResult {
  return { statusCode, headers: { ...SECURITY_HEADERS, ...headers }, body: Buffer.from(bytes).toString('base64'), isBase64Encoded: true };
}

/**
 * The one error shape of the API. `errors` lists every problem of an invalid input (the first is also in message,
 * field and code); requestId and docUrl are added to every error answer on its way out (shared/http/request-id.ts).
 */
export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  code: string;
  field?: string;
  errors?: FieldProblem[];
}

export function errorBody(statusCode: number, code: string, message: string, field?: string, errors?: FieldProblem[]): ErrorBody {
  return { statusCode, error: reasonPhrase[statusCode] ?? 'Error', message, code, ...(field ? { field } : {}), ...(errors ? { errors } : {}) };
}
