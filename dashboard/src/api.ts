/**
 * The dashboard's only network partner: the API on the same origin (the sandbox, or CloudFront's /v1/* behaviour in
 * AWS). Every call carries the user's token and the data mode; a 401 means the session is over.
 *
 * @example
 * const page = await api<PaymentPage>('GET', '/v1/dashboard/payments', { query: { lastFour: '0002' } });
 */
import { clearSession, currentMode, currentSession } from './session.ts';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

let onSessionEnded: () => void = () => {};
/** What to do when the API says the token is no longer good (expired, or the user was removed). */
export function whenSessionEnds(handler: () => void): void {
  onSessionEnded = handler;
}

export interface CallOptions {
  query?: Record<string, string | number | undefined | null>;
  body?: unknown;
  /** Without the user's token (sign-in). */
  anonymous?: boolean;
}

export async function api<T>(method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, options: CallOptions = {}): Promise<T> {
  const url = new URL(path, location.origin);
  for (const [name, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined && value !== null && value !== '') url.searchParams.set(name, String(value));
  }
  const headers: Record<string, string> = { Accept: 'application/json', 'Svc-Mode': currentMode() };
  const session = currentSession();
  if (!options.anonymous && session) headers.Authorization = `Bearer ${session.token}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  // A change made twice (a double click, a retried request) must not act twice.
  if (method !== 'GET') headers['Idempotency-Key'] = crypto.randomUUID();

  let response: Response;
  try {
    response = await fetch(url, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body), credentials: 'same-origin', cache: 'no-store' });
  } catch {
    throw new ApiError(0, 'offline', 'No answer from the server.');
  }
  const text = await response.text();
  const body = parseJson(text);
  if (response.ok) return body as T;
  const error = (body ?? {}) as { code?: string; message?: string; field?: string };
  if (response.status === 401 && !options.anonymous) {
    clearSession();
    onSessionEnded();
  }
  throw new ApiError(response.status, error.code ?? 'unknown', error.message ?? response.statusText, error.field);
}

/** A gateway's HTML error page (CloudFront, API Gateway) is not JSON: read as no body. */
function parseJson(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}
