import type { ApiErrorBody } from './api-types.ts';

/**
 * A non-2xx answer of the API, in its one error shape. Branch on `code` (the README's error catalogue lists them);
 * `message` is for people and may change.
 */
export class SvcApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly field: string | undefined;
  /** Every problem of an invalid input (400 parameter_*); empty otherwise. */
  readonly errors: NonNullable<ApiErrorBody['errors']>;
  /** The answer's Request-Id: quote it to support. */
  readonly requestId: string;
  /** The code's entry in the README's error table. */
  readonly docUrl: string;
  /** From Retry-After (429, 409 idempotency_in_progress); null when the answer had none. */
  readonly retryAfterSeconds: number | null;

  constructor(body: ApiErrorBody, retryAfter: string | null) {
    super(body.message);
    this.name = 'SvcApiError';
    this.status = body.statusCode;
    this.code = body.code;
    this.field = body.field;
    this.errors = body.errors ?? [];
    this.requestId = body.requestId;
    this.docUrl = body.docUrl;
    this.retryAfterSeconds = retryAfter && /^\d+$/.test(retryAfter) ? Number(retryAfter) : null;
  }
}
