import * as manifest from '../../shared/route-manifest.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { exportPage } from '../../shared/dashboard/payments-export.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { ExportPaymentsQuerySchema } from '../../shared/schemas/payment-export-schemas.ts';

/**
 * GET /v1/payments/export: the payments list with its filters as CSV, a page per request (shared/dashboard/
 * payments-export.ts). Each page is audited for a dashboard user: the export's id, the filters, the rows given.
 */
export const { build, handler, schemas } = defineApiHandler(
  manifest.exportPayments,
  { query: ExportPaymentsQuerySchema },
  async (req, deps) => {
    const { cursor, limit, ...filters } = req.query;
    const page = await exportPage(deps, req.auth, filters, { cursor, limit, now: req.now });
    const shown = new URLSearchParams(Object.entries(filters).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)]]))).toString();
    return { statusCode: 200, body: page, auditDetail: { filters: shown, rows: page.rows, first: cursor === undefined, last: !page.hasMore } };
  },
  { userTokens: userTokensFromEnvironment },
);
