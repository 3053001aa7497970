import * as z from 'zod';
import { REFUND_REASONS } from '../domain/refund.ts';
import { EXTERNAL_REFUND_CHANNELS } from '../domain/refund-channels.ts';
import { luhnValid } from '../domain/payment-data.ts';

/** A card number typed where a transfer's reference belongs would be stored: refused (docs/security.md). */
const holdsCardNumber = (text: string): boolean => (text.match(/\d{13,19}/g) ?? []).some(luhnValid);

const ExternalRefundSchema = z
  .strictObject({
    channel: z.enum(EXTERNAL_REFUND_CHANNELS).meta({ description: 'How the money went back: a bank transfer, a pago móvil (a vuelto), cash, or another way.' }),
    reference: z
      .string()
      .regex(/^[A-Za-z0-9-]{1,40}$/, { error: 'must be 1 to 40 letters, digits or hyphens' })
      .refine((text) => !holdsCardNumber(text), { error: 'looks like a card number: give the reference of the transfer or pago móvil' })
      .optional()
      .meta({ description: "The transfer's or pago móvil's reference, for the merchant's reconciliation.", example: '004512398771' }),
  })
  .meta({ id: 'ExternalRefund' });

export const CreateRefundBodySchema = z
  .strictObject({
    amountMinor: z
      .int()
      .min(1)
      .max(Number.MAX_SAFE_INTEGER)
      .optional()
      .meta({ description: 'Minor units to refund; default: all that remains. Partial refunds may repeat until the approved amount is used up.', example: 500 }),
    reason: z.enum(REFUND_REASONS).optional(),
    method: z
      .enum(['external'])
      .optional()
      .meta({
        description:
          'external: record a refund the merchant made another way (no money moves, no bank is called); it counts as refunded at once. Needed where the network has no refund (Mercantil cards). Default: a refund through the network.',
      }),
    external: ExternalRefundSchema.optional().meta({ description: 'With method external (and only then): how the money went back.' }),
  })
  .superRefine((body, ctx) => {
    if (body.method === 'external' && !body.external) ctx.addIssue({ code: 'custom', path: ['external'], message: 'is required with method external: say how the money went back' });
    if (body.method !== 'external' && body.external) ctx.addIssue({ code: 'custom', path: ['external'], message: 'is only taken with method external' });
  })
  .meta({ id: 'CreateRefundBody', example: { amountMinor: 500, reason: 'requested_by_customer' } });

export type CreateRefundBody = z.output<typeof CreateRefundBodySchema>;
