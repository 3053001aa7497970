import * as z from 'zod';
import { EVENT_TYPES } from '../domain/events.ts';
import { DELIVERY_STATES } from '../webhooks/delivery.ts';
import { AUTH_TYPES, ENDPOINT_STATUSES } from '../webhooks/endpoint.ts';
import { cursorListQuery } from './common.ts';

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Authentication fields; in a PATCH "" deletes one. Which are required depends on authType (shared/webhooks/endpoint.ts). */
const authFields = {
  authType: z.enum(AUTH_TYPES).optional().meta({ description: 'none (default), bearer, basic, api_key or oauth2.' }),
  authToken: z.string().max(4096).optional().meta({ description: 'bearer and api_key. Stored encrypted, never returned.' }),
  authUsername: z.string().max(256).optional().meta({ description: 'basic. Stored encrypted, never returned.' }),
  authPassword: z.string().max(1024).optional().meta({ description: 'basic. Stored encrypted, never returned.' }),
  authHeaderName: z.union([z.literal(''), z.string().max(100).regex(HEADER_NAME, { error: 'must be a valid HTTP header name' })]).optional().meta({ description: 'api_key: the header that carries authToken.' }),
  oauthTokenUrl: z.string().max(2048).optional().meta({ description: 'oauth2: the token endpoint (client_credentials grant).' }),
  oauthClientId: z.string().max(256).optional(),
  oauthClientSecret: z.string().max(4096).optional().meta({ description: 'oauth2. Stored encrypted, never returned.' }),
  oauthScope: z.string().max(1024).optional(),
};

const enabledEvents = z
  .array(z.enum(EVENT_TYPES))
  .max(EVENT_TYPES.length * 2)
  .optional()
  .meta({ description: 'Event types to receive. Omitted or [] means all but the optional gateway-specific ones, which must be named.' });

export const CreateWebhookEndpointBodySchema = z
  .strictObject({
    url: z.string().min(1).max(2048).meta({ description: 'https URL that receives the POSTs.' }),
    enabledEvents,
    description: z.string().max(500).optional(),
    ...authFields,
  })
  .meta({ id: 'CreateWebhookEndpointRequest', example: { url: 'https://shop.example/hooks', enabledEvents: ['charge.approved', 'session.expired'], authType: 'bearer', authToken: 'shop-secret' } });
export type CreateWebhookEndpointBody = z.output<typeof CreateWebhookEndpointBodySchema>;

export const UpdateWebhookEndpointBodySchema = z
  .strictObject({
    url: z.string().min(1).max(2048).optional(),
    enabledEvents,
    description: z.string().max(500).optional().meta({ description: '"" clears it.' }),
    status: z.enum(ENDPOINT_STATUSES).optional().meta({ description: 'disabled stops deliveries; the endpoint and its history are kept.' }),
    ...authFields,
  })
  .meta({ id: 'UpdateWebhookEndpointRequest', description: 'An omitted field is kept; "" deletes a credential; a new value rotates it.' });
export type UpdateWebhookEndpointBody = z.output<typeof UpdateWebhookEndpointBodySchema>;

export const WebhookEndpointParamsSchema = z.strictObject({
  id: z.string().regex(/^we_[0-9A-Za-z]{1,64}$/, { error: 'must be a webhook endpoint id (we_...)' }),
});

export const WebhookDeliveryParamsSchema = z.strictObject({
  id: z.string().regex(/^wd_[0-9A-Za-z]{1,64}$/, { error: 'must be a webhook delivery id (wd_...)' }),
});

export const ListWebhookDeliveriesQuerySchema = z.strictObject({
  endpointId: z.string().regex(/^we_[0-9A-Za-z]{1,64}$/, { error: 'must be a webhook endpoint id (we_...)' }).optional(),
  eventId: z.string().regex(/^evt_[0-9A-Za-z]{1,64}$/, { error: 'must be an event id (evt_...)' }).optional(),
  state: z.enum(DELIVERY_STATES).optional(),
  ...cursorListQuery(/^wd_[0-9A-Za-z]{1,64}$/, 'a webhook delivery id (wd_...)'),
});

export const ListWebhookEndpointsQuerySchema = z.strictObject(cursorListQuery(/^we_[0-9A-Za-z]{1,64}$/, 'a webhook endpoint id (we_...)'));

export const TestWebhookEndpointQuerySchema = z.strictObject({
  type: z.enum(EVENT_TYPES).optional().meta({ description: 'The event type of the sample; default webhook.test. Samples have the real shape, data.sample true and false references (txn_sample...).' }),
});
