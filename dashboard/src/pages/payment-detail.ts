/**
 * One payment: the session, every charge attempt with the bank's code and Spanish message (and its technical text,
 * untranslated and labelled so), the document charged and the trace, the refunds of the approved attempt (with the
 * refund form for the roles that may move money: payment-refunds.ts), and the webhook deliveries of its events (with
 * resend for write roles).
 */
import { api } from '../api.ts';
import { deliveryTable } from '../deliveries.ts';
import { h, replace, type Child } from '../dom.ts';
import { formatMoney } from '../../../shared/domain/money-format.ts';
import { formatDateTime } from '../format.ts';
import { locale, t } from '../i18n.ts';
import { cardLabel, gatewayName, paymentStatusLabel } from '../names.ts';
import { routeHref } from '../router.ts';
import type { PaymentDetail, TransactionDetail } from '../types.ts';
import { refundsSection } from './payment-refunds.ts';
import { badge, emptyState, noticeRegion, section, testFlag } from '../ui.ts';

/** A definition list of label/value pairs; empty values are left out. */
function facts(pairs: [string, Child][]): HTMLDListElement {
  return h('dl', { class: 'facts' }, ...pairs.filter(([, value]) => value !== null && value !== undefined && value !== '').flatMap(([label, value]) => [h('dt', {}, label), h('dd', {}, value)]));
}

function attempt(transaction: TransactionDetail, index: number): HTMLElement {
  const d = t().detail;
  const declined = transaction.status === 'declined' || transaction.status === 'failed';
  return h(
    'article',
    { class: `attempt ${declined ? 'attempt-failed' : ''}` },
    h('h3', { class: 'break' }, d.attempt(index + 1, transaction.reference), ' ', badge(transaction.status), transaction.test ? testFlag() : null),
    declined && transaction.declineReason ? h('p', { class: 'decline-reason' }, h('strong', {}, `${d.bankMessage}: `), h('span', { lang: 'es' }, transaction.declineReason)) : null,
    facts([
      [d.bankCode, transaction.errorCode ? h('code', {}, transaction.errorCode) : null],
      // The connectors' technical text is English (the API's language), whatever the page's.
      [d.technicalDetail, transaction.detail ? h('span', { lang: 'en' }, transaction.detail) : null],
      [t().detail.amount, formatMoney(transaction.amountMinor, transaction.currency, locale())],
      [t().payments.card, transaction.card ? cardLabel(transaction.card.brand, transaction.card.lastFour) : null],
      [d.holder, transaction.cardholderName ?? null],
      [d.document, transaction.document ? `${transaction.document.type}-${transaction.document.id}` : null],
      [d.gateway, transaction.gateway ? gatewayName(transaction.gateway) : null],
      [d.processorReference, transaction.processorReference],
      [t().common.createdAt, formatDateTime(transaction.createdAt)],
    ]),
    transaction.trace?.length
      ? h('details', {}, h('summary', {}, d.trace), h('ol', { class: 'trace' }, ...transaction.trace.map((step) => h('li', {}, h('time', { datetime: step.at }, formatDateTime(step.at)), ' ', h('code', {}, step.event), step.detail ? ` · ${step.detail}` : ''))))
      : null,
  );
}

export async function renderPaymentDetail(view: HTMLElement, reference: string): Promise<void> {
  const d = t().detail;
  const path = `/v1/dashboard/payments/${encodeURIComponent(reference)}`;
  const detail = await api<PaymentDetail>('GET', path);
  const region = noticeRegion();
  const deliveries = h('div', {});
  const drawDeliveries = (list: PaymentDetail['deliveries']): void =>
    replace(
      deliveries,
      list.length
        ? deliveryTable(d.deliveriesTitle, list, region, async (): Promise<void> => drawDeliveries((await api<PaymentDetail>('GET', path)).deliveries))
        : emptyState(d.noDeliveries),
    );
  drawDeliveries(detail.deliveries);

  const session = detail.session;
  const first = detail.transactions[0];
  // At most one attempt of a payment is approved: refunds are of that one.
  const paid = detail.transactions.find((x) => x.status === 'approved' || x.status === 'refunded');
  const reloadPaid = async (): Promise<TransactionDetail | undefined> => (await api<PaymentDetail>('GET', path)).transactions.find((x) => x.reference === paid?.reference);
  const test = session ? session.mode === 'test' : (first?.test ?? false);
  replace(
    view,
    h('p', {}, h('a', { href: routeHref('payments') }, `← ${d.back}`)),
    h('h1', { tabindex: -1, class: 'break' }, d.title(reference), ' ', test ? testFlag() : null),
    session
      ? section(
          d.session,
          facts([
            [t().payments.reference, h('code', {}, session.reference)],
            [t().common.status, badge(session.status, paymentStatusLabel('session', session.status))],
            [d.amount, formatMoney(session.amountMinor, session.currency, locale())],
            [d.description, session.description ?? null],
            [d.customer, session.customerRef],
            [d.created, formatDateTime(session.createdAt)],
            [d.expires, session.expiresAt ? formatDateTime(session.expiresAt) : null],
          ]),
        )
      : null,
    paid ? refundsSection(paid, reloadPaid) : null,
    section(d.attemptsTitle, ...(detail.transactions.length ? detail.transactions.map(attempt) : [emptyState(d.noAttempts)])),
    section(d.deliveriesTitle, region, deliveries),
  );
}
