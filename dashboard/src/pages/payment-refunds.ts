/**
 * The refunds of a payment's approved attempt: what was charged, refunded and is left, each refund, and for the roles
 * that may move money (the manifest's createRefund.dashboard) a refund form, full or partial. Where the network has no
 * refund (Mercantil cards), the form records a refund the merchant made another way instead (method external):
 * docs/payments.md#refunds.
 */
import { api } from '../api.ts';
import { h, replace } from '../dom.ts';
import { GATEWAYS } from '../../../shared/domain/merchant.ts';
import { formatMoney } from '../../../shared/domain/money-format.ts';
import { EXTERNAL_REFUND_CHANNELS } from '../../../shared/domain/refund-channels.ts';
import { createRefund } from '../../../shared/route-manifest.ts';
import { amountInputValue, formatDateTime, parseAmountInput } from '../format.ts';
import { locale, t } from '../i18n.ts';
import { gatewayName } from '../names.ts';
import { can } from '../session.ts';
import type { TransactionDetail } from '../types.ts';
import { badge, confirmDialog, errorMessage, field, InputError, notice, noticeRegion, section, select, table, whileBusy } from '../ui.ts';

type Refund = TransactionDetail['refunds'][number];

/** Every refund not failed holds its amount: what is left is what the API would still take. */
const leftToRefund = (transaction: TransactionDetail): number => transaction.amountMinor - transaction.refunds.filter((r) => r.status !== 'failed').reduce((sum, r) => sum + r.amountMinor, 0);

function methodLabel(refund: Refund): string {
  const r = t().refunds;
  if (refund.method === 'external') return r.recorded(r.channels[refund.external?.channel ?? 'other'] ?? refund.external?.channel ?? '');
  return refund.method === 'void' ? r.methodVoid : r.methodNetwork;
}

function refundTable(transaction: TransactionDetail): HTMLElement {
  const r = t().refunds;
  const rows = transaction.refunds.map((refund) => [
    h('time', { datetime: refund.createdAt, class: 'nowrap' }, formatDateTime(refund.createdAt)),
    h('span', { class: 'amount' }, formatMoney(refund.amountMinor, refund.currency, locale())),
    badge(refund.status, r.statuses[refund.status]),
    methodLabel(refund),
    h('code', { class: 'break' }, refund.processorReference ?? refund.external?.reference ?? refund.reference),
  ]);
  return table(r.listTitle, [t().common.createdAt, r.amount, t().common.status, r.method, r.reference], rows);
}

/** The form: a refund through the network, or (where there is none) the record of one made another way. */
function refundForm(transaction: TransactionDetail, left: number, region: HTMLElement, done: () => Promise<void>): HTMLFormElement {
  const r = t().refunds;
  const external = !GATEWAYS[transaction.gateway as keyof typeof GATEWAYS]?.refunds;
  const money = (minor: number) => formatMoney(minor, transaction.currency, locale());
  const amount = h('input', { name: 'amount', type: 'text', inputmode: 'decimal', autocomplete: 'off', required: true, value: amountInputValue(left) });
  const channel = select('channel', EXTERNAL_REFUND_CHANNELS.map((c): [string, string] => [c, r.channels[c] ?? c]), 'bank_transfer');
  const reference = h('input', { name: 'reference', type: 'text', autocomplete: 'off', spellcheck: 'false', maxlength: 40, pattern: '[A-Za-z0-9\\-]{1,40}' });
  const reason = select('reason', [['', r.noReason], ...(['requested_by_customer', 'duplicate', 'fraudulent'] as const).map((v): [string, string] => [v, r.reasons[v]])], '');
  const submit = h('button', { type: 'submit', class: 'primary' }, external ? r.record : r.refund);
  const form = h(
    'form',
    { class: 'refund-form', 'aria-label': external ? r.recordTitle : r.refundTitle },
    h('h3', {}, external ? r.recordTitle : r.refundTitle),
    field(r.amount, amount, r.amountHint(money(left))),
    external ? field(r.channel, channel) : null,
    external ? field(r.externalReference, reference, r.externalReferenceHint) : null,
    field(r.reason, reason),
    h('div', { class: 'actions' }, submit),
  );
  amount.addEventListener('input', () => amount.setCustomValidity(''));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const amountMinor = parseAmountInput(amount.value);
    if (amountMinor === null || amountMinor < 1 || amountMinor > left) {
      amount.setCustomValidity(amountMinor === null ? t().payments.amountInvalid : r.amountTooHigh(money(left)));
      amount.reportValidity();
      return;
    }
    const whole = amountMinor === left;
    const question = external ? r.confirmRecord(money(amountMinor)) : whole ? r.confirmFull(money(amountMinor)) : r.confirmPartial(money(amountMinor));
    void confirmDialog(question, external ? r.record : r.refund).then(async (confirmed) => {
      if (!confirmed) return;
      await whileBusy(submit, async () => {
        try {
          const body = {
            amountMinor,
            ...(reason.value ? { reason: reason.value } : {}),
            ...(external ? { method: 'external', external: { channel: channel.value, ...(reference.value.trim() ? { reference: reference.value.trim() } : {}) } } : {}),
          };
          const refund = await api<Refund>('POST', `/v1/transactions/${encodeURIComponent(transaction.reference)}/refunds`, { body });
          await done();
          notice(region, refund.status === 'failed' ? 'error' : 'ok', refund.status === 'failed' ? r.failed(refund.declineReason ?? '') : external ? r.recordedDone(money(amountMinor)) : refund.status === 'pending' ? r.pending : r.done(money(amountMinor)));
        } catch (error) {
          notice(region, 'error', error instanceof InputError ? error.message : errorMessage(error));
        }
      });
    });
  });
  return form;
}

/**
 * The refunds section of an approved (or refunded) attempt; `reload` fetches the payment again and redraws the
 * section with it, so what is left is always the API's.
 */
export function refundsSection(transaction: TransactionDetail, reload: () => Promise<TransactionDetail | undefined>): HTMLElement {
  const r = t().refunds;
  const body = h('div', {});
  const region = noticeRegion();
  const draw = (current: TransactionDetail): void => {
    const left = leftToRefund(current);
    const money = (minor: number) => formatMoney(minor, current.currency, locale());
    const externally = current.refunds.filter((x) => x.method === 'external' && x.status === 'succeeded').reduce((sum, x) => sum + x.amountMinor, 0);
    const noNetworkRefund = !GATEWAYS[current.gateway as keyof typeof GATEWAYS]?.refunds;
    replace(
      body,
      h(
        'dl',
        { class: 'facts' },
        h('dt', {}, r.charged),
        h('dd', {}, money(current.amountMinor)),
        h('dt', {}, r.refunded),
        h('dd', {}, money(current.amountRefundedMinor), externally ? h('span', { class: 'hint' }, ` · ${r.ofWhichRecorded(money(externally))}`) : null),
        h('dt', {}, r.left),
        h('dd', { class: 'refund-left' }, money(left)),
      ),
      noNetworkRefund ? h('p', { class: 'notice info' }, r.noNetworkRefund(gatewayName(current.gateway))) : null,
      current.refunds.length ? refundTable(current) : null,
      left <= 0 ? null : can(createRefund.dashboard) ? refundForm(current, left, region, async () => draw((await reload()) ?? current)) : h('p', { class: 'hint' }, r.adminOnly),
    );
  };
  draw(transaction);
  return section(r.title, region, body);
}
