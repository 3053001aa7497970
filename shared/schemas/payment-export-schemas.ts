import * as z from 'zod';
import { queryInt } from './common.ts';
import { PaymentsQuerySchema } from './dashboard-schemas.ts';

/** The payments list's filters (docs/dashboard.md, "Payments"); the page size is the export's own. */
export const ExportPaymentsQuerySchema = PaymentsQuerySchema.omit({ limit: true })
  .extend({
    limit: queryInt(1, 500, 500).meta({ description: 'Rows a page: 1 to 500, default 500.' }),
    cursor: z.string().max(1100).optional().meta({ description: "The previous page's nextCursor; absent on the first page." }),
  })
  .meta({ id: 'ExportPaymentsQuery' });
