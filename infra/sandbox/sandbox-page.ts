/**
 * GET /__sandbox/?merchant=mer_...&mode=test: what happened in the sandbox, without reading logs. Recent sessions,
 * transactions and webhook deliveries of the named merchants, each with its payload as the API shows it (card brand
 * and last four only: no card data exists to show). Sandbox only; server-rendered, every value escaped.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { Deps } from '../../shared/deps.ts';
import { toSessionResource } from '../../shared/domain/session.ts';
import type { Mode } from '../../shared/domain/session-state.ts';
import { toMerchantTransaction } from '../../shared/domain/transaction.ts';
import { toDeliveryResource } from '../../shared/webhooks/delivery.ts';

const RECENT = 20;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (value: unknown): string => String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** One row per item: its summary columns, and its whole payload behind a <details>. */
function table(title: string, columns: string[], rows: { cells: unknown[]; payload: unknown }[]): string {
  const head = columns.map((c) => `<th>${escapeHtml(c)}</th>`).join('');
  const body = rows
    .map(({ cells, payload }) => `<tr>${cells.map((c) => `<td>${escapeHtml(c ?? '')}</td>`).join('')}<td><details><summary>payload</summary><pre>${escapeHtml(JSON.stringify(payload, null, 2))}</pre></details></td></tr>`)
    .join('\n');
  return `<h3>${escapeHtml(title)} (${rows.length})</h3>\n${rows.length ? `<table><tr>${head}<th></th></tr>\n${body}</table>` : '<p>None yet.</p>'}`;
}

async function merchantSection(deps: Deps, merchantId: string, mode: Mode, now: number): Promise<string> {
  const [sessions, transactions, deliveries, events] = await Promise.all([
    deps.sessions.list(merchantId, mode, { page: 1, pageSize: RECENT, now }),
    deps.transactions.list(merchantId, mode, {}, { page: 1, pageSize: RECENT }),
    deps.webhookDeliveries.list(merchantId, mode, { limit: RECENT }),
    deps.outbox.listForMerchant(merchantId, mode),
  ]);
  const eventById = new Map(events.map((e) => [e.envelope.id, e.envelope]));
  return [
    `<h2>Merchant ${escapeHtml(merchantId)} · ${escapeHtml(mode)}</h2>`,
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
      ['id', 'event', 'state', 'attempts', 'last status', 'createdAt'],
      deliveries.items.map((d) => ({
        cells: [d.id, d.eventType, d.state, d.attemptCount, d.lastStatusCode, d.createdAt],
        payload: { event: eventById.get(d.eventId) ?? null, delivery: toDeliveryResource(d) },
      })),
    ),
  ].join('\n');
}

const STYLE = `body{font:14px system-ui,sans-serif;margin:2rem;color:#222}table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}pre{white-space:pre-wrap;margin:0}
h2{margin-top:2rem}`;

export async function sandboxPage(deps: Deps, query: URLSearchParams, now: number): Promise<APIGatewayProxyResult> {
  const merchantIds = query.getAll('merchant').filter((id) => /^mer_[0-9A-Za-z]{1,64}$/.test(id));
  const mode: Mode = query.get('mode') === 'live' ? 'live' : 'test';
  const sections = merchantIds.length
    ? (await Promise.all(merchantIds.map((id) => merchantSection(deps, id, mode, now)))).join('\n')
    : '<p>Name a merchant: <code>/__sandbox/?merchant=mer_...</code> (npm start prints the link for the seeded merchant). Add <code>&amp;mode=live</code> for live data.</p>';
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>svc sandbox</title><style>${STYLE}</style></head>
<body><h1>svc sandbox: recent activity</h1><p>Sandbox clock: ${escapeHtml(new Date(now).toISOString())}</p>
${sections}</body></html>`;
  return {
    statusCode: 200,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      'X-Content-Type-Options': 'nosniff',
    },
    body: html,
  };
}
