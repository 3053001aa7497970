import type { ApiErrorBody } from './api-types.ts';

/** An error answer: the API's shape, or what a proxy in the way said (no requestId, no docUrl in its body). */
export type ErrorAnswer = Omit<ApiErrorBody, 'requestId' | 'docUrl'> & Partial<Pick<ApiErrorBody, 'requestId' | 'docUrl'>>;

/**
 * A non-2xx answer of the API, in its one error shape. Branch on `code` (docs/errors.md lists them);
 * `message` is for people and may change.
 */
export class SvcApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly field: string | undefined;
  /** Every problem of an invalid input (400 parameter_*); empty otherwise. */
  readonly errors: NonNullable<ApiErrorBody['errors']>;
  /** The answer's Request-Id: quote it to support. Null only when something in the way answered without one. */
  readonly requestId: string | null;
  /** Absolute URL of the code's entry in the docs' error catalogue (http://localhost:4010/docs/errors#error-<code> in the sandbox); null for an answer not in the API's shape. */
  readonly docUrl: string | null;
  /** From Retry-After (429, 409 idempotency_in_progress); null when the answer had none. */
  readonly retryAfterSeconds: number | null;

  constructor(body: ErrorAnswer, retryAfter: string | null) {
    super(body.message);
    this.name = 'SvcApiError';
    this.status = body.statusCode;
    this.code = body.code;
    this.field = body.field;
    this.errors = body.errors ?? [];
    this.requestId = body.requestId ?? null;
    this.docUrl = body.docUrl ?? null;
    this.retryAfterSeconds = retryAfter && /^\d+$/.test(retryAfter) ? Number(retryAfter) : null;
  }
}
