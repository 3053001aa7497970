/** How the merchant returned the money of an external refund. No imports: the dashboard's bundle uses it. */
export const EXTERNAL_REFUND_CHANNELS = ['bank_transfer', 'pago_movil', 'cash', 'other'] as const;
export type ExternalRefundChannel = (typeof EXTERNAL_REFUND_CHANNELS)[number];
