/**
 * The client's request and response types, derived from the zod schemas the API validates with and documents in
 * /v1/openapi.json: a change to a schema changes these types, the document and the validation together.
 */
import type * as z from 'zod';
import type { CreateChargeBodySchema, ListCardsQuerySchema } from '../schemas/card-schemas.ts';
import type { CardListSchema, CardSchema } from '../schemas/card-responses.ts';
import type { P2cReferenceBodySchema } from '../schemas/checkout-schemas.ts';
import type { P2cReferenceResultSchema } from '../schemas/checkout-responses.ts';
import type { CreateSessionBodySchema, ListSessionsQuerySchema } from '../schemas/session-schemas.ts';
import type { SessionListSchema, SessionSchema } from '../schemas/session-responses.ts';
import type { AnalyticsSummaryQuerySchema, ListTransactionsQuerySchema } from '../schemas/transaction-schemas.ts';
import type { AnalyticsSummarySchema, TransactionDetailSchema, TransactionSchema, TransactionListSchema } from '../schemas/transaction-responses.ts';
import type { CreateWebhookEndpointBodySchema, ListWebhookDeliveriesQuerySchema, ListWebhookEndpointsQuerySchema, TestWebhookEndpointQuerySchema, UpdateWebhookEndpointBodySchema } from '../schemas/webhook-schemas.ts';
import type { CreatedWebhookEndpointSchema, DeletedWebhookEndpointSchema, WebhookDeliveryListSchema, WebhookDeliverySchema, WebhookEndpointListSchema, WebhookEndpointSchema, WebhookTestResultSchema } from '../schemas/webhook-responses.ts';
import type { ErrorSchema } from '../schemas/common-responses.ts';
import type { CreateRefundBodySchema } from '../schemas/refund-schemas.ts';
import type { RefundListSchema, RefundSchema } from '../schemas/refund-responses.ts';
import type { ExportPaymentsQuerySchema } from '../schemas/payment-export-schemas.ts';
import type { PaymentsExportPageSchema } from '../schemas/payment-export-responses.ts';

/** Query strings travel as text; the client also takes numbers for the integer parameters. */
type QueryOf<S extends z.ZodType> = { [K in keyof z.input<S>]?: z.input<S>[K] | number };

export type CreateSessionParams = z.input<typeof CreateSessionBodySchema>;
export type ListSessionsParams = QueryOf<typeof ListSessionsQuerySchema>;
export type Session = z.output<typeof SessionSchema>;
export type SessionList = z.output<typeof SessionListSchema>;

export type ListCardsParams = z.input<typeof ListCardsQuerySchema>;
export type Card = z.output<typeof CardSchema>;
export type CardList = z.output<typeof CardListSchema>;
export type CreateChargeParams = z.input<typeof CreateChargeBodySchema>;
export type PagoMovilReferenceParams = z.input<typeof P2cReferenceBodySchema>;
export type PagoMovilReferenceResult = z.output<typeof P2cReferenceResultSchema>;
export type Transaction = z.output<typeof TransactionSchema>;

export type ListTransactionsParams = QueryOf<typeof ListTransactionsQuerySchema>;
export type TransactionDetail = z.output<typeof TransactionDetailSchema>;
export type TransactionList = z.output<typeof TransactionListSchema>;
export type CreateRefundParams = z.input<typeof CreateRefundBodySchema>;
export type Refund = z.output<typeof RefundSchema>;
export type RefundList = z.output<typeof RefundListSchema>;
export type ExportPaymentsParams = z.input<typeof ExportPaymentsQuerySchema>;
export type PaymentsExportPage = z.output<typeof PaymentsExportPageSchema>;
export type AnalyticsSummaryParams = z.input<typeof AnalyticsSummaryQuerySchema>;
export type AnalyticsSummary = z.output<typeof AnalyticsSummarySchema>;

export type CreateWebhookEndpointParams = z.input<typeof CreateWebhookEndpointBodySchema>;
export type UpdateWebhookEndpointParams = z.input<typeof UpdateWebhookEndpointBodySchema>;
export type WebhookEndpoint = z.output<typeof WebhookEndpointSchema>;
export type CreatedWebhookEndpoint = z.output<typeof CreatedWebhookEndpointSchema>;
export type WebhookEndpointList = z.output<typeof WebhookEndpointListSchema>;
export type DeletedWebhookEndpoint = z.output<typeof DeletedWebhookEndpointSchema>;
export type TestWebhookEndpointParams = z.input<typeof TestWebhookEndpointQuerySchema>;
export type WebhookTestResult = z.output<typeof WebhookTestResultSchema>;
export type ListWebhookDeliveriesParams = QueryOf<typeof ListWebhookDeliveriesQuerySchema>;
export type ListWebhookEndpointsParams = QueryOf<typeof ListWebhookEndpointsQuerySchema>;
export type WebhookDelivery = z.output<typeof WebhookDeliverySchema>;
export type WebhookDeliveryList = z.output<typeof WebhookDeliveryListSchema>;

export type ApiErrorBody = z.output<typeof ErrorSchema>;
