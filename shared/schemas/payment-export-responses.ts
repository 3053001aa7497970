/** What the payments export answers: for the OpenAPI document and the SDK's and pages' types only, out of every Lambda bundle. */
import * as z from 'zod';
import { PAYMENTS_CSV_COLUMNS } from '../domain/payments-csv.ts';

export const PaymentsExportPageSchema = z
  .object({
    id: z.string().meta({ description: 'exp_...: the export, the same on each of its pages (and in the audit log).', example: 'exp_q3Vx9LmT2pR8sK4wN7yB1cZd' }),
    csv: z.string().meta({
      description: `This page's CSV lines (RFC 4180, CRLF). The first page starts with the header line: ${PAYMENTS_CSV_COLUMNS.join(',')}. A text cell starting with = + - @, a tab or CR is prefixed with an apostrophe (no formula runs in a spreadsheet).`,
    }),
    rows: z.int().meta({ description: 'Payments on this page (at most limit).' }),
    hasMore: z.boolean(),
    nextCursor: z.string().nullable().meta({ description: 'Pass back as cursor for the next page; null on the last.' }),
  })
  .meta({ id: 'PaymentsExportPage' });
