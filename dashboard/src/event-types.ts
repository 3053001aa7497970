/**
 * The webhook event types the endpoint form offers. The browser bundle cannot import shared/domain/events.ts (it
 * pulls in node:crypto), so the list is repeated here and test/browser/dashboard-assets.test.ts holds it equal to the
 * domain's EVENT_TYPES and OPTIONAL_EVENT_TYPES.
 */
export const OPTIONAL_EVENT_TYPES = ['card.authentication_expiring', 'card.authentication_expired'] as const;

export const EVENT_TYPES = [
  'charge.approved',
  'charge.declined',
  'charge.failed',
  'charge.refunded',
  'charge.refund_failed',
  'card.stored',
  'card.deleted',
  'session.otp_requested',
  'session.otp_confirmed',
  'session.expired',
  'webhook.test',
  ...OPTIONAL_EVENT_TYPES,
] as const;

export const AUTH_TYPES = ['none', 'bearer', 'basic', 'api_key', 'oauth2'] as const;
export type AuthType = (typeof AUTH_TYPES)[number];

/** The credential fields each authType needs (shared/webhooks/endpoint.ts decides; the API checks). */
export const AUTH_FIELDS: Record<AuthType, readonly string[]> = {
  none: [],
  bearer: ['authToken'],
  basic: ['authUsername', 'authPassword'],
  api_key: ['authHeaderName', 'authToken'],
  oauth2: ['oauthTokenUrl', 'oauthClientId', 'oauthClientSecret', 'oauthScope'],
};

/** Fields the API never returns: a form leaves them empty and says whether one is stored. */
export const SECRET_FIELDS = new Set(['authToken', 'authUsername', 'authPassword', 'oauthClientSecret']);
