/** What the webhook endpoint and delivery operations answer: for the OpenAPI document and the SDK's and pages' types only, out of every Lambda bundle. */
import * as z from 'zod';
import { EVENT_TYPES } from '../domain/events.ts';
import { DELIVERY_STATES } from '../webhooks/delivery.ts';
import { AUTH_TYPES, ENDPOINT_STATUSES } from '../webhooks/endpoint.ts';
import { cursorListSchema } from './common-responses.ts';

export const WebhookEndpointSchema = z
  .object({
    id: z.string().meta({ example: 'we_3Jk9Qx2LmZ8rT1vB6nW3kY5a' }),
    mode: z.enum(['test', 'live']),
    url: z.string(),
    enabledEvents: z.array(z.enum(EVENT_TYPES)).meta({ description: '[] means all but the optional gateway-specific events.' }),
    description: z.string().nullable(),
    status: z.enum(ENDPOINT_STATUSES),
    authType: z.enum(AUTH_TYPES),
    authHeaderName: z.string().nullable(),
    oauthTokenUrl: z.string().nullable(),
    oauthClientId: z.string().nullable(),
    oauthScope: z.string().nullable(),
    hasAuthToken: z.boolean(),
    hasBasicAuth: z.boolean(),
    hasOAuthClientSecret: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'WebhookEndpoint' });

export const CreatedWebhookEndpointSchema = WebhookEndpointSchema.extend({
  secret: z.string().meta({ description: 'The signing secret (whsec_...): shown in this answer only.', example: 'whsec_9fJ2xq2LmZ8rT1vB6nW3kY5a' }),
}).meta({ id: 'CreatedWebhookEndpoint' });

export const WebhookEndpointListSchema = cursorListSchema(WebhookEndpointSchema, 'WebhookEndpointList');

export const DeletedWebhookEndpointSchema = z.object({ id: z.string(), deleted: z.literal(true) }).meta({ id: 'DeletedWebhookEndpoint' });

export const WebhookTestResultSchema = z
  .object({ deliveryId: z.string().meta({ example: 'wd_7Hq2LmZ8rT1vB6nW3kY5aQe1' }), eventId: z.string().meta({ example: 'evt_5Tq2LmZ8rT1vB6nW3kY5aQe1' }) })
  .meta({ id: 'WebhookTestResult' });

export const WebhookDeliverySchema = z
  .object({
    id: z.string(),
    mode: z.enum(['test', 'live']),
    endpointId: z.string(),
    eventId: z.string(),
    eventType: z.enum(EVENT_TYPES),
    state: z.enum(DELIVERY_STATES),
    attemptCount: z.int(),
    lastStatusCode: z.int().nullable(),
    nextRetryAt: z.string().nullable(),
    failureReason: z.string().nullable().meta({ description: 'endpoint_deleted, endpoint_disabled or event_expired when the delivery stopped without a final attempt.' }),
    attempts: z.array(
      z.object({
        attempt: z.int(),
        at: z.string(),
        manual: z.boolean(),
        statusCode: z.int().nullable().meta({ description: 'Null when no HTTP answer came (timeout, refused address, network error).' }),
        durationMs: z.number(),
        responseExcerpt: z.string().nullable(),
        error: z.string().nullable(),
        nextRetryAt: z.string().nullable(),
      }),
    ),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'WebhookDelivery' });

export const WebhookDeliveryListSchema = cursorListSchema(WebhookDeliverySchema, 'WebhookDeliveryList');
