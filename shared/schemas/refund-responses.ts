/** What the refund operations answer: for the OpenAPI document and the SDK's types only, out of every Lambda bundle. */
import * as z from 'zod';
import { CURRENCIES } from '../domain/merchant.ts';
import { REFUND_REASONS, REFUND_STATUSES } from '../domain/refund.ts';
import { EXTERNAL_REFUND_CHANNELS } from '../domain/refund-channels.ts';

export const RefundSchema = z
  .object({
    reference: z.string().meta({ example: 'ref_3f1c9a0d2b7e4c58a6d1f0e9b2c4a7d1' }),
    transactionReference: z.string(),
    test: z.boolean(),
    method: z.enum(['refund', 'void', 'external']).meta({
      description: 'void: the processor cancelled a charge of the same day before settling it; external: a refund the merchant made another way and recorded (no money moved here); refund otherwise.',
    }),
    amountMinor: z.int(),
    currency: z.enum(CURRENCIES),
    status: z.enum(REFUND_STATUSES).meta({ description: 'pending until the bank has paid it out (or answered at all); then succeeded or failed.' }),
    reason: z.enum(REFUND_REASONS).nullable(),
    processorReference: z.string().nullable().meta({ description: "The bank's reference of the refund or void; null for an external refund." }),
    external: z
      .object({ channel: z.enum(EXTERNAL_REFUND_CHANNELS), reference: z.string().nullable() })
      .nullable()
      .meta({ description: 'How an external refund went back (channel, and the reference the merchant gave); null for a refund through the network.' }),
    errorCode: z.string().nullable().meta({ description: 'Why it failed: the bank code, or processor_unavailable. Null unless failed.' }),
    declineReason: z.string().nullable().meta({ description: 'Spanish text for the buyer; may change. Null unless failed.' }),
    detail: z.string().nullable().meta({ description: 'Technical reason of a failure.' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Refund' });

export const RefundListSchema = z
  .object({
    data: z.array(RefundSchema).meta({ description: 'Oldest first.' }),
    transactionReference: z.string(),
    amountMinor: z.int().meta({ description: 'The approved amount of the transaction.' }),
    amountRefundedMinor: z.int().meta({ description: 'Sum of the refunds that succeeded.' }),
  })
  .meta({ id: 'RefundList' });
