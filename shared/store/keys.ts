import type { Mode } from '../domain/session-state.ts';

/**
 * Every entity's keys, built in one place. Partition keys start with the entity kind so that items of different
 * kinds never collide and a stream consumer can tell them apart from the key alone.
 */
export const keys = {
  merchant: (merchantId: string) => ({ pk: `MERCHANT#${merchantId}`, sk: 'MERCHANT' }),
  /** The checkout logo's bytes, beside the merchant item (which holds only its hash and type). */
  merchantLogo: (merchantId: string) => ({ pk: `MERCHANT#${merchantId}`, sk: 'LOGO' }),
  apiKey: (keyHash: string) => ({ pk: `APIKEY#${keyHash}`, sk: 'APIKEY' }),
  merchantKeys: (merchantId: string, createdAt: string, keyHash: string) => ({
    gsi1pk: `MERCHANT#${merchantId}#KEYS`,
    gsi1sk: `${createdAt}#${keyHash}`,
  }),
  session: (reference: string) => ({ pk: `SESSION#${reference}`, sk: 'SESSION' }),
  merchantSessionsPartition: (merchantId: string, mode: Mode) => `MERCHANT#${merchantId}#${mode}#SESSIONS`,
  merchantSessions: (merchantId: string, mode: Mode, createdAt: string, reference: string) => ({
    gsi1pk: keys.merchantSessionsPartition(merchantId, mode),
    gsi1sk: `${createdAt}#${reference}`,
  }),
  card: (svcToken: string) => ({ pk: `CARD#${svcToken}`, sk: 'CARD' }),
  merchantCardsPartition: (merchantId: string, mode: Mode) => `MERCHANT#${merchantId}#${mode}#CARDS`,
  merchantCards: (merchantId: string, mode: Mode, createdAt: string, svcToken: string) => ({
    gsi1pk: keys.merchantCardsPartition(merchantId, mode),
    gsi1sk: `${createdAt}#${svcToken}`,
  }),
  /** One per card under a gateway's periodic verification, indexed by the estimated end, for the daily notices. */
  cardVerification: (svcToken: string) => ({ pk: `CARD_VERIFICATION#${svcToken}`, sk: 'CARD_VERIFICATION' }),
  cardVerifications: (estimatedEnd: string, svcToken: string) => ({ gsi1pk: 'CARD_VERIFICATIONS', gsi1sk: `${estimatedEnd}#${svcToken}` }),
  /** The de-duplication match: one per merchant, mode, card fingerprint (64 hex) and customer; points at the card. */
  cardMatch: (merchantId: string, mode: Mode, fingerprint: string, customerRef: string) => ({
    pk: `CARD_MATCH#${merchantId}#${mode}#${fingerprint}#${customerRef}`,
    sk: 'CARD_MATCH',
  }),
  idempotency: (merchantId: string, mode: Mode, scope: string, idempotencyKey: string) => ({
    pk: `IDEMPOTENCY#${merchantId}#${mode}#${scope}#${idempotencyKey}`,
    sk: 'IDEMPOTENCY',
  }),
  /** The rate counter of a merchant's operation class for one UTC day (2026-01-01), its minutes included. */
  rateWindow: (merchantId: string, operationClass: string, day: string) => ({
    pk: `RATE#${merchantId}#${operationClass}#${day}`,
    sk: 'RATE',
  }),
  event: (eventId: string) => ({ pk: `EVENT#${eventId}`, sk: 'EVENT' }),
  transaction: (reference: string) => ({ pk: `TXN#${reference}`, sk: 'TXN' }),
  /** The OTP entries reserved for one attempt (a transaction awaiting a code): its count, before the bank checks any. */
  otpEntries: (transactionReference: string) => ({ pk: `OTP_ENTRIES#${transactionReference}`, sk: 'OTP_ENTRIES' }),
  /**
   * One bank payment pays one session: a P2C reference claimed for the attempt that submitted it, keyed by mode and
   * referenceClaimKey (merchant, payer bank, reference without leading zeros).
   */
  pagoMovilClaim: (mode: Mode, claimKey: string) => ({ pk: `PAGO_MOVIL_CLAIM#${mode}#${claimKey}`, sk: 'PAGO_MOVIL_CLAIM' }),
  /** The card number sealed for an attempt while a later request needs it (card-vault.ts); expires by TTL as a backstop. */
  sealedCard: (transactionReference: string) => ({ pk: `SEALED_CARD#${transactionReference}`, sk: 'SEALED_CARD' }),
  /** A transaction's refunds share one partition, read with one Query. */
  refund: (transactionReference: string, reference: string) => ({ pk: `REFUNDS#${transactionReference}`, sk: `REFUND#${reference}` }),
  refundsPartition: (transactionReference: string) => `REFUNDS#${transactionReference}`,
  merchantTransactionsPartition: (merchantId: string, mode: Mode) => `MERCHANT#${merchantId}#${mode}#TXNS`,
  merchantTransactions: (merchantId: string, mode: Mode, createdAt: string, reference: string) => ({
    gsi1pk: keys.merchantTransactionsPartition(merchantId, mode),
    gsi1sk: `${createdAt}#${reference}`,
  }),
  /**
   * A payment's search entry (one per session or server-to-server charge, docs/data-model.md, "Dashboard payments list"):
   * listed newest first per merchant and mode; sparse gsi1 (last four) and gsi2 (customerRef) for exact searches.
   */
  paymentsPartition: (merchantId: string, mode: Mode) => `PAYMENTS#${merchantId}#${mode}`,
  paymentEntry: (merchantId: string, mode: Mode, createdAt: string, reference: string) => ({ pk: keys.paymentsPartition(merchantId, mode), sk: `${createdAt}#${reference}` }),
  paymentsByLastFour: (merchantId: string, mode: Mode, lastFour: string) => `PAYMENTS#${merchantId}#${mode}#L4#${lastFour}`,
  paymentsByCustomer: (merchantId: string, mode: Mode, customerRef: string) => `PAYMENTS#${merchantId}#${mode}#CUSTOMER#${customerRef}`,
  webhookEndpoint: (endpointId: string) => ({ pk: `WEBHOOK_ENDPOINT#${endpointId}`, sk: 'WEBHOOK_ENDPOINT' }),
  merchantWebhookEndpoints: (merchantId: string, mode: Mode, createdAt: string, endpointId: string) => ({
    gsi1pk: `MERCHANT#${merchantId}#${mode}#WEBHOOK_ENDPOINTS`,
    gsi1sk: `${createdAt}#${endpointId}`,
  }),
  webhookDelivery: (deliveryId: string) => ({ pk: `WEBHOOK_DELIVERY#${deliveryId}`, sk: 'WEBHOOK_DELIVERY' }),
  merchantWebhookDeliveries: (merchantId: string, mode: Mode, createdAt: string, deliveryId: string) => ({
    gsi1pk: `MERCHANT#${merchantId}#${mode}#WEBHOOK_DELIVERIES`,
    gsi1sk: `${createdAt}#${deliveryId}`,
  }),
  /** A dashboard user; listed per merchant through gsi1. */
  user: (userId: string) => ({ pk: `USER#${userId}`, sk: 'USER' }),
  merchantUsers: (merchantId: string, createdAt: string, userId: string) => ({ gsi1pk: `MERCHANT#${merchantId}#USERS`, gsi1sk: `${createdAt}#${userId}` }),
  /** One per email across merchants: the uniqueness guard and the sign-in lookup. */
  userEmail: (email: string) => ({ pk: `USER_EMAIL#${email}`, sk: 'USER_EMAIL' }),
  /** The sandbox's password hash of a user (Cognito keeps them in AWS). */
  localLogin: (userId: string) => ({ pk: `LOCAL_LOGIN#${userId}`, sk: 'LOCAL_LOGIN' }),
  /** A sandbox sign-in challenge already answered (its jti): a challenge session gives one token only. */
  usedChallenge: (challengeId: string) => ({ pk: `USED_CHALLENGE#${challengeId}`, sk: 'USED_CHALLENGE' }),
  /** A signed-in dashboard session (the SHA-256 of its token): sign-out deletes it, idle time expires it. */
  dashboardSession: (tokenHash: string) => ({ pk: `DASHBOARD_SESSION#${tokenHash}`, sk: 'DASHBOARD_SESSION' }),
  /** Failed sign-ins of one email (its SHA-256) in one lockout window; expires with the window. */
  signInFailures: (emailHash: string, window: number) => ({ pk: `SIGNIN_FAILURES#${emailHash}#${window}`, sk: 'SIGNIN_FAILURES' }),
  /** A merchant's audit log: one partition, sorted by time. */
  auditEntry: (merchantId: string, at: string, id: string) => ({ pk: `AUDIT#${merchantId}`, sk: `${at}#${id}` }),
  auditPartition: (merchantId: string) => `AUDIT#${merchantId}`,
  /** A merchant's latest request to switch test mode on or off for a gateway. */
  testModeRequest: (merchantId: string, gateway: string) => ({ pk: `MERCHANT#${merchantId}`, sk: `TEST_MODE_REQUEST#${gateway}` }),
  testModeRequests: (requestedAt: string, merchantId: string, gateway: string) => ({ gsi1pk: 'TEST_MODE_REQUESTS', gsi1sk: `${requestedAt}#${merchantId}#${gateway}` }),
  /**
   * A record a worker could not handle after its retries, parked with its error until replayed
   * (shared/background/parked-records.ts). The worker id leads the key, so each stream worker's event filter
   * matches only replay requests of its own records.
   */
  parkedRecord: (workerId: string, recordId: string) => ({ pk: `PARKED#${workerId}#${recordId}`, sk: 'PARKED' }),
  parkedRecordPrefix: (workerId: string) => `PARKED#${workerId}#`,
  parkedRecords: (parkedAt: string, id: string) => ({ gsi1pk: 'PARKED_RECORDS', gsi1sk: `${parkedAt}#${id}` }),
  /** The sandbox's stand-in for EventBridge Scheduler keeps its pending schedules here, found again at start. */
  localSchedule: (name: string) => ({ pk: `LOCAL_SCHEDULE#${name}`, sk: 'LOCAL_SCHEDULE' }),
  localSchedules: (fireAt: string, name: string) => ({ gsi1pk: 'LOCAL_SCHEDULES', gsi1sk: `${fireAt}#${name}` }),
  /** The sandbox stream reader's checkpoints: one item per reader and stream (`STREAM`, it has started) and per shard. */
  localStreamCheckpoint: (reader: string, streamArn: string, shardId?: string) => ({
    pk: `LOCAL_STREAM#${reader}#${streamArn}`,
    sk: shardId === undefined ? 'STREAM' : `SHARD#${shardId}`,
  }),
  /**
   * A delivery a sandbox's in-memory queue holds a message for; indexed by the sandbox that queued it (its stream
   * reader id), so a restart finds its own with one Query.
   */
  localQueuedDelivery: (deliveryId: string) => ({ pk: `LOCAL_QUEUED_DELIVERY#${deliveryId}`, sk: 'LOCAL_QUEUED_DELIVERY' }),
  localQueuedDeliveries: (sandboxId: string, deliveryId: string) => ({ gsi1pk: `LOCAL_QUEUED_DELIVERIES#${sandboxId}`, gsi1sk: deliveryId }),
};
