import type * as z from 'zod';
import type { InputSchemas } from '../http/middlewares/validate-input.ts';

/**
 * What an operation answers, for the OpenAPI document: its success bodies by status, and the error statuses it
 * answers beyond those its manifest entry implies (authentication, validation, rate limit, idempotency).
 */
export interface ResponseSchemas {
  success: Partial<Record<200 | 201 | 202, z.ZodType>>;
  /** The success answers' media type when it is not JSON (a logo: image/*). */
  mediaType?: string;
  /** Status -> when it happens, with the error codes to branch on. */
  errors?: Partial<Record<400 | 404 | 409 | 410 | 422 | 503, string>>;
}

/** An operation as the document describes it: the input its handler validates and what it answers. */
export interface OperationSchemas extends InputSchemas {
  responses: ResponseSchemas;
}
