/**
 * GET /__sandbox/?merchant=mer_...&mode=test: what happened in the sandbox, without reading logs. Recent API requests
 * (with their request ids and error codes), sessions, transactions and webhook deliveries of the named merchants, each
 * with its payload as the API shows it (card brand and last four only: no card data exists to show), and a resend
 * button per delivery; and the pago móvil payments the Mercantil simulator received (phones masked). Sandbox only; server-rendered, every value escaped, no script (a plain form POST resends).
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { AllDeps } from '../../shared/deps.ts';
import { toSessionResource } from '../../shared/domain/session.ts';
import type { Mode } from '../../shared/domain/session-state.ts';
import { toMerchantTransaction } from '../../shared/domain/transaction.ts';
import { toDeliveryResource } from '../../shared/webhooks/delivery.ts';
import type { RequestLogEntry } from './request-log.ts';
import { createParkedRecords } from '../../shared/background/parked-records.ts';
import { ApiError } from '../../shared/errors.ts';
import { errorBody, jsonResponse } from '../../shared/http/response.ts';
import { retryDelivery } from '../../shared/webhooks/manual-retry.ts';
import { formatMoney } from '../../shared/domain/money-format.ts';
import type { MercantilSimulator } from './mercantil/mercantil-simulator.ts';
import { PAGO_MOVIL_PAYMENTS_PATH, receivedPagoMovil } from './mercantil/pago-movil-controls.ts';

const RECENT = 20;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (value: unknown): string => String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** Where a delivery's resend button posts: the same retry as POST /v1/webhooks/deliveries/{id}/retry. */
export const RESEND_PATH = /^\/__sandbox\/deliveries\/(wd_[0-9A-Za-z]{1,64})\/retry$/;

/** One row per item: its summary columns, its whole payload behind a <details>, and its action (trusted HTML) if any. */
function table(title: string, columns: string[], rows: { cells: unknown[]; payload: unknown; action?: string }[]): string {
  const head = columns.map((c) => `<th scope="col">${escapeHtml(c)}</th>`).join('');
  const hasActions = rows.some((row) => row.action);
  const body = rows
    .map(
      ({ cells, payload, action }) =>
        `<tr>${cells.map((c) => `<td>${escapeHtml(c ?? '')}</td>`).join('')}<td><details><summary>payload</summary><pre>${escapeHtml(JSON.stringify(payload, null, 2))}</pre></details></td>${hasActions ? `<td>${action ?? ''}</td>` : ''}</tr>`,
    )
    .join('\n');
  const extra = `<th scope="col">details</th>${hasActions ? '<th scope="col">action</th>' : ''}`;
  return `<h3>${escapeHtml(title)} (${rows.length})</h3>\n${rows.length ? `<table><tr>${head}${extra}</tr>\n${body}</table>` : '<p>None yet.</p>'}`;
}

const requestsTable = (title: string, requests: readonly RequestLogEntry[]) =>
  table(
    title,
    ['time', 'method', 'path', 'status', 'request id', 'error code', 'ms'],
    requests.map((r) => ({ cells: [r.at, r.method, r.path, r.status, r.requestId, r.code, r.durationMs], payload: r })),
  );

/** A form, not a script: the page's CSP allows none. The server answers with a redirect back here. */
const resendButton = (deliveryId: string, merchantId: string, mode: Mode) =>
  `<form method="post" action="/__sandbox/deliveries/${escapeHtml(deliveryId)}/retry"><input type="hidden" name="merchant" value="${escapeHtml(merchantId)}"><input type="hidden" name="mode" value="${escapeHtml(mode)}"><button type="submit" aria-label="Resend ${escapeHtml(deliveryId)}">Resend</button></form>`;

async function merchantSection(deps: AllDeps, merchantId: string, mode: Mode, now: number, requests: readonly RequestLogEntry[]): Promise<string> {
  const [sessions, transactions, deliveries, events, endpoints] = await Promise.all([
    deps.sessions.list(merchantId, mode, { page: 1, pageSize: RECENT, now }),
    deps.transactions.list(merchantId, mode, {}, { page: 1, pageSize: RECENT }),
    deps.webhookDeliveries.list(merchantId, mode, { limit: RECENT }),
    deps.outbox.listForMerchant(merchantId, mode),
    deps.webhookEndpoints.list(merchantId, mode),
  ]);
  const eventById = new Map(events.map((e) => [e.envelope.id, e.envelope]));
  const urlOfEndpoint = new Map(endpoints.map((e) => [e.id, e.url]));
  return [
    `<h2>Merchant ${escapeHtml(merchantId)} · ${escapeHtml(mode)}</h2>`,
    // A request's mode is its key's, which the log does not keep: both modes' requests are listed.
    requestsTable('API requests (both modes)', requests.filter((r) => r.merchantId === merchantId)),
    table(
      'Sessions',
      ['reference', 'status', 'closedReason', 'amount', 'createdAt'],
      sessions.items.map((s) => {
        const resource = toSessionResource(s, now, deps.config.checkoutBaseUrl);
        return { cells: [resource.reference, resource.status, resource.closedReason, `${resource.amountMinor} ${resource.currency}`, resource.createdAt], payload: resource };
      }),
    ),
    table(
      'Transactions',
      ['reference', 'status', 'errorCode', 'amount', 'createdAt'],
      transactions.items.map((t) => {
        const resource = toMerchantTransaction(t);
        return { cells: [resource.reference, resource.status, resource.errorCode, `${resource.amountMinor} ${resource.currency}`, resource.createdAt], payload: resource };
      }),
    ),
    table(
      'Webhook deliveries',
      ['id', 'event', 'endpoint url', 'state', 'attempts', 'last status', 'createdAt'],
      deliveries.items.map((d) => ({
        cells: [d.id, d.eventType, urlOfEndpoint.get(d.endpointId) ?? '(endpoint deleted)', d.state, d.attemptCount, d.lastStatusCode, d.createdAt],
        payload: { event: eventById.get(d.eventId) ?? null, delivery: toDeliveryResource(d) },
        action: resendButton(d.id, merchantId, mode),
      })),
    ),
  ].join('\n');
}

/** Records the workers parked after their retries (any merchant's): each with its error and the command that replays it. */
async function parkedSection(deps: AllDeps): Promise<string> {
  const parked = await createParkedRecords(deps.db, deps.config.tableName).list();
  // Its own h2: the page's headings go h1, h2, h3 without a gap (axe heading-order).
  return '<h2>Background workers</h2>\n' + table(
    'Parked records: a worker failed on these after its retries',
    ['id', 'worker', 'error', 'attempts', 'parkedAt', 'replay'],
    parked.map((p) => ({ cells: [p.id, p.workerId, `${p.error.name}: ${p.error.message}`, p.attempts, p.parkedAt, `npm run admin -- dead-letters replay --id ${p.id}`], payload: p.record })),
  );
}

/** The pago móvil payments the Mercantil simulator received (its one ledger, shared by every merchant on its test credentials). */
function pagoMovilSection(ledger: MercantilSimulator['pagoMovil']): string {
  return `<h2>Banco Mercantil simulator</h2>\n<p>Add one with <code>POST ${PAGO_MOVIL_PAYMENTS_PATH}</code> (docs/pago-movil.md): the bank's search then finds it.</p>\n` + table(
    'Pago móvil received',
    ['reference', 'payer phone', 'payer bank', 'amount', 'date'],
    receivedPagoMovil(ledger).map((p) => ({ cells: [p.reference, p.payerPhone, `${p.payerBankCode} ${p.payerBankName}`, formatMoney(p.amountMinor, 'VES', 'en-US'), p.date], payload: p })),
  );
}

const STYLE = `body{font:14px system-ui,sans-serif;margin:2rem;color:#222}table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}pre{white-space:pre-wrap;margin:0}
h2{margin-top:2rem}`;

/** What the resend action reports back through the redirect: "resent" or the refusal's error code. */
const NOTICE = /^(resent|[a-z_]{1,40})$/;

export async function sandboxPage(
  deps: AllDeps,
  query: URLSearchParams,
  now: number,
  requests: readonly RequestLogEntry[] = [],
  pagoMovil?: MercantilSimulator['pagoMovil'],
): Promise<APIGatewayProxyResult> {
  const merchantIds = query.getAll('merchant').filter((id) => /^mer_[0-9A-Za-z]{1,64}$/.test(id));
  const mode: Mode = query.get('mode') === 'live' ? 'live' : 'test';
  const sections = merchantIds.length
    ? (await Promise.all(merchantIds.map((id) => merchantSection(deps, id, mode, now, requests)))).join('\n') +
      `\n<h2>Other requests</h2>\n${requestsTable('Requests without a merchant (no valid key, unknown path)', requests.filter((r) => r.merchantId === null))}`
    : '<p>Name a merchant: <code>/__sandbox/?merchant=mer_...</code> (npm start prints the link for the seeded merchant). Add <code>&amp;mode=live</code> for live data.</p>';
  const notice = NOTICE.exec(query.get('notice') ?? '')?.[0];
  const noticeHtml = notice ? `<p role="status">${notice === 'resent' ? 'Resend queued: the attempt appears below within seconds (reload).' : `Resend refused: ${escapeHtml(notice)}.`}</p>` : '';
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>svc sandbox</title><style>${STYLE}</style></head>
<body><main><h1>svc sandbox: recent activity</h1><p>Sandbox clock: ${escapeHtml(new Date(now).toISOString())}</p>${noticeHtml}
${await parkedSection(deps)}
${pagoMovil ? pagoMovilSection(pagoMovil) : ''}
${sections}</main></body></html>`;
  return {
    statusCode: 200,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
      'X-Content-Type-Options': 'nosniff',
    },
    body: html,
  };
}

/**
 * POST /__sandbox/deliveries/{id}/retry, the resend button: the API's manual retry, then back to the page (303) with
 * a notice. Refused from another site's page (Sec-Fetch-Site), so a page elsewhere cannot make the sandbox resend.
 */
export async function resendFromPage(deps: AllDeps, deliveryId: string, form: Buffer, fetchSite: string | undefined): Promise<APIGatewayProxyResult> {
  if (fetchSite !== undefined && fetchSite !== 'same-origin') return jsonResponse(403, errorBody(403, 'cross_site_request', 'Resend only from the sandbox page itself.'));
  const fields = new URLSearchParams(form.toString('utf8'));
  const back = new URLSearchParams({ merchant: fields.get('merchant') ?? '', mode: fields.get('mode') === 'live' ? 'live' : 'test' });
  const delivery = await deps.webhookDeliveries.get(deliveryId);
  if (!delivery) return jsonResponse(404, errorBody(404, 'resource_missing', 'No such webhook delivery.'));
  try {
    await retryDelivery(deps, delivery);
    back.set('notice', 'resent');
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    back.set('notice', error.code);
  }
  return { statusCode: 303, headers: { Location: `/__sandbox/?${back}`, 'Cache-Control': 'no-store' }, body: '' };
}
