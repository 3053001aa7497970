import { routes, type RouteId } from '../routes.ts';

/** The routes of the public document: every manifest entry not marked internal (the dashboard's own are). */
export type PublicRouteId = { [K in RouteId]: (typeof routes)[K] extends { internal: true } ? never : K }[RouteId];

export const isPublicRoute = (id: RouteId): id is PublicRouteId => !(routes[id] as { internal?: true }).internal;

/**
 * Each public operation's description in the OpenAPI document: what it does, when to use it and what to branch on.
 * The summary stays in the manifest; the type makes a new public route fail to compile until it is described here.
 */
export const OPERATION_DESCRIPTIONS: Record<PublicRouteId, string> = {
  createSession:
    'Creates a short-lived payment session on your server and answers its `checkoutUrl`: send the buyer there. With `cardToken` the buyer enters only the CVV (the session inherits the card\'s customerRef; another customerRef is refused with 409 `customer_mismatch`). `maxFailures` counts failures tolerated (0 closes at the first one; omitted means unlimited). Send an `Idempotency-Key` so a retried request never opens two sessions.',
  getSession:
    'Reads a session with its current status. A session past `expiresAt` reads `expired` (closedReason `expired`) at once, whether or not the background expiry has run.',
  listSessions:
    'Lists the sessions of the key\'s mode, newest first, in pages (`{ data, total, page, pageSize }`). `status=expired` returns every closed-unpaid session whatever its closedReason. Server-to-server charges have no session and are not listed.',
  expireSession:
    'Closes a session now: `expired` with closedReason `merchant_request`, `expiresAt` unchanged, one `session.expired` event. Idempotent: a closed session is answered as it is. Refused (409) when paid, while a charge is at the bank, or with the other mode\'s key. A USD session\'s pending payment is cancelled at the processor first (503 when it cannot be: nothing changed, retry).',
  getCheckoutSession:
    'What the hosted checkout page shows: amount, description, the merchant\'s public name and logo, the effective prefill, whether an OTP or a document is needed, and the stored card\'s brand and last four. Authorised by the session reference itself (a publishable key is optional). Not rate limited.',
  createCheckoutCharge:
    'Charges the buyer\'s card for a session, from the checkout page. One `Idempotency-Key` per attempt: a repeat replays the stored answer and never charges twice. 200 with the result (approved, declined or failed: a decline is an answer, not an error), 202 while the bank asks for an OTP or has not answered yet. 400 `invalid_payment_data` counts as a failed attempt; 409/410 (closed session, charge in flight) are not attempts.',
  requestPagoMovilKey:
    'Asks the payer\'s bank to send them a C2P payment key ("clave de pago") by SMS. Only on an open session that takes `pago_movil_c2p`; changes no session state. Bounded to 3 per session and 5 per phone per UTC day (429 `payment_key_limit` with Retry-After); 422 `payment_key_refused` when the bank refuses, its message the Spanish text for the buyer. Bad bank code, phone or document: 400 naming the field. See docs/pago-movil.md.',
  createPagoMovilCharge:
    'Debits the buyer by pago móvil C2P with the key their bank sent them (Mercantil `c2p` `compra`). An attempt like a card charge, with the same answer: 200 approved, declined or failed, 202 while the bank has not answered (settled later by a status read, never sent twice). One `Idempotency-Key` per attempt. The key is used for this one call: never stored, logged or echoed. Bad bank code, phone, document or key: 400 naming the field, not an attempt.',
  submitPagoMovilReference:
    'The buyer gives the reference of the pago móvil they sent to the merchant\'s affiliated phone (P2C), with their bank, phone and the day paid. An attempt: the payment is claimed for this session (one bank payment pays one session) and searched for at the bank (Mercantil `mobile-payment/search`). 200 approved, or declined `pago_movil_amount_differs` (recorded with amountReceivedMinor), `pago_movil_reference_used` (another session holds it; the bank is not asked) or, after the last re-check, `pago_movil_not_found`; 202 while not found yet, with nextAction `pago_movil_verifying`: the service searches again by itself (15 s, 30 s, 1, 2, 3 and 5 minutes). 3 references per session (409 `pago_movil_reference_limit`). One `Idempotency-Key` per attempt. See docs/pago-movil.md.',
  submitSessionPagoMovilReference:
    'The merchant\'s server submits a P2C reference the buyer sent by another channel (WhatsApp, a call): the same attempt, bounds and outcomes as POST /v1/checkout/pago-movil/reference, answered with the merchant\'s view of the transaction (the decline code, amountReceivedMinor). One `Idempotency-Key` per attempt.',
  confirmCheckoutOtp:
    'Sends the OTP the bank gave the buyer (or the factor `nextAction.factor` names: Mercantil\'s clave telefónica) for the pending attempt. A wrong code, or a code or account type the bank refuses, answers 422 `otp_invalid` with the entries left; the third wrong entry ends the attempt declined. A code sent at or after `expiresAt` ends it declined (`otp_expired`). `abandon: true` instead of a code leaves the step: the attempt ends declined `otp_abandoned`, one failure.',
  getMerchantLogo:
    'The merchant\'s logo image (PNG, JPEG or WebP), public and cacheable for a year: its URL changes whenever the logo does. Linked from the checkout read\'s `merchant.logoUrl`.',
  listTransactions:
    'Lists the transactions of the key\'s mode, newest first, in pages; filter by status, session and a creation window [createdFrom, createdTo).',
  getTransaction:
    'A transaction with its full technical reason (`detail`), the document charged, its refunds and its event trace. A server-to-server charge the bank left unanswered for 60 seconds is settled by this read from the bank\'s record (never charged again).',
  createRefund:
    'Refunds an approved transaction, in full (default: all that remains) or in part; partial refunds may repeat until the amount is used up. Needs an `Idempotency-Key`. Answers the refund: 200 with `succeeded` or `failed` (errorCode and a Spanish reason), 202 with `pending` while the bank settles it; `charge.refunded` or `charge.refund_failed` follows. More than remains is 400 `refund_amount_exceeds_remaining`; a transaction that is not approved (`transaction_not_refundable`) or is fully refunded (`already_refunded`) is 409.',
  listRefunds: 'The refunds of a transaction, oldest first, with their status.',
  exportPayments:
    'The payments list of the key\'s mode (checkout sessions and server-to-server charges, newest first) as CSV for reconciliation, with the filters of the dashboard\'s list: `query` (a reference or a customerRef), `lastFour`, `status`, `currency`, `amountMinor`, `from`, `to`. Up to 500 rows a page, so each answer stays small and quick however long the period: ask again with `nextCursor` until `hasMore` is false and join the `csv` texts (only the first page has the header line). Columns: the time in Caracas and in UTC, the amount in minor units and as a decimal, currency, status, method, card brand and last four, network, the bank\'s reference, our references, customerRef, and the amounts refunded (in all, and of it recorded as returned another way). Cells a spreadsheet would run as a formula are neutralised. A dashboard user\'s export is in the audit log, a page an entry.',
  listCards:
    'Lists the stored cards of the key\'s mode, newest first, optionally of one customerRef. Deleted cards are not listed; a card past its expiry month reads `expired`. A bare array, as the spec fixes it.',
  deleteCard:
    'Deletes a stored card (logical: the record stays for its transactions). Answers the card with status `deleted` and sends `card.deleted` once; a repeat answers the same card. Needs write permission (read-only keys get 403); counted as a read for rate limits.',
  createCharge:
    'Charges a stored card server to server, without the buyer, on a gateway that needs no CVV (bank_otp). Needs an `Idempotency-Key`. `customerRef`, when sent, must be the card\'s. 200 with the result, 202 while the bank is late (read the transaction, or wait for `charge.*`). 409 `authentication_required` when the gateway asks the customer to verify the card again.',
  getAnalyticsSummary:
    'Counts by status, approved and refunded volume and the approval rate of live transactions created in [from, to), per currency. Test transactions are never counted, whichever key asks.',
  createWebhookEndpoint:
    'Registers an https URL to receive signed events. The answer carries the signing secret `whsec_...` once: store it. `enabledEvents` omitted or [] means every event except the optional gateway-specific ones. Outbound authentication (bearer, basic, api_key, oauth2) is stored encrypted and never returned.',
  listWebhookEndpoints: 'Lists the webhook endpoints of the key\'s mode (at most 16 per mode).',
  getWebhookEndpoint: 'Reads a webhook endpoint; credentials appear only as flags (hasAuthToken, hasBasicAuth, ...).',
  updateWebhookEndpoint:
    'Changes URL, events, status or authentication. An omitted field is kept; `""` deletes a credential; a new value rotates it; `status: "disabled"` pauses deliveries and keeps the history.',
  deleteWebhookEndpoint: 'Deletes an endpoint. Its delivery history is kept; pending deliveries to it stop.',
  testWebhookEndpoint:
    'Queues a signed sample event to this endpoint, even if it is disabled or not subscribed: `webhook.test` by default, or any event type with `?type=` (real shape, `data.sample: true`, references such as `txn_sample...`).',
  listWebhookDeliveries: 'The delivery log, newest first: one item per event and endpoint, with each attempt\'s status.',
  getWebhookDelivery: 'One delivery with every attempt: time, HTTP status or error, duration.',
  retryWebhookDelivery: 'Sends a delivery again now, whatever its state (also after all automatic retries failed). Refused when its endpoint was deleted or is disabled.',
  getOpenApiDocument: 'This document. No key needed. An HTML reference of it is served by the sandbox at /docs.',
};
