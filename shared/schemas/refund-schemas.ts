import * as z from 'zod';
import { REFUND_REASONS } from '../domain/refund.ts';

export const CreateRefundBodySchema = z
  .strictObject({
    amountMinor: z
      .int()
      .min(1)
      .max(Number.MAX_SAFE_INTEGER)
      .optional()
      .meta({ description: 'Minor units to refund; default: all that remains. Partial refunds may repeat until the approved amount is used up.', example: 500 }),
    reason: z.enum(REFUND_REASONS).optional(),
  })
  .meta({ id: 'CreateRefundBody', example: { amountMinor: 500, reason: 'requested_by_customer' } });

export type CreateRefundBody = z.output<typeof CreateRefundBodySchema>;
