/**
 * The merchant-server SDK: a typed API client and the webhook signature check. Import from here only.
 */
export { createSvcClient, type SvcClient, type SvcClientOptions, type WriteOptions } from './svc-client.ts';
export { SvcApiError } from './svc-api-error.ts';
export { parseWebhookEvent, SIGNATURE_HEADER, verifyWebhookSignature, WebhookSignatureError, type EventType, type WebhookEvent } from './webhook-events.ts';
export type * from './api-types.ts';
