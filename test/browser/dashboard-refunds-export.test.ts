/**
 * The payment detail's refunds and the payments list's CSV export, on desktop and phone, axe-checked, with
 * screenshots under test-artifacts/dashboard/: an admin refunds part then the rest of a card payment, records a
 * refund made another way on a Mercantil card payment (the network has none), and downloads the list as CSV; a
 * developer is offered no refund.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBankCredentials } from '../../shared/admin/bank-credentials.ts';
import { SIMULATOR_TEST_CREDENTIALS } from '../../shared/connectors/mercantil/credentials.ts';
import { PAYMENTS_CSV_COLUMNS } from '../../shared/domain/payments-csv.ts';
import { MERCANTIL_TEST_DATA } from '../../infra/sandbox/mercantil/mercantil-simulator.ts';
import { card, checkoutCharge, openSession } from '../support/checkout.ts';
import { parseCsv } from '../support/csv.ts';
import {
  BROWSER_TEST_TIMEOUT,
  checkoutPayment,
  DESKTOP,
  PHONE,
  screenshot,
  seriousViolations,
  signIn,
  startDashboardHarness,
  useTestData,
  WAIT,
  type DashboardHarness,
  type DashboardUserLogin,
} from './support/dashboard-browser.ts';

describe('refunds and the CSV export in the dashboard', BROWSER_TEST_TIMEOUT, () => {
  let harness: DashboardHarness;
  let developer: DashboardUserLogin;

  beforeAll(async () => {
    harness = await startDashboardHarness();
    developer = await harness.invite('developer');
    await loadBankCredentials(harness.sandbox.deps, harness.merchant.id, 'mercantil', JSON.stringify(SIMULATOR_TEST_CREDENTIALS));
  }, 120_000);
  afterAll(() => harness?.close());

  /** Puts the merchant's bolívares on `gateway`, past the authenticator's merchant cache (on the sandbox clock). */
  async function moveVesTo(gateway: 'bank_direct' | 'mercantil') {
    await harness.sandbox.deps.merchants.update(harness.merchant.id, { gateways: { VES: gateway, USD: 'card_processor' }, testMode: { ...harness.merchant.testMode, mercantil: true } });
    harness.sandbox.advance(31);
  }

  /** A card payment of `customerRef` on the sandbox bank (which refunds), and one on Mercantil (which does not). */
  async function payments(customerRef: string) {
    const byBank = await checkoutPayment(harness, customerRef, 'approved');
    await moveVesTo('mercantil');
    const session = await openSession(harness.sandbox, harness.keys.secretTest, { amountMinor: 80_000, customerRef });
    const paid = await checkoutCharge(harness.sandbox, session.reference, { card: card(MERCANTIL_TEST_DATA.credit.cardNumber, { expMonth: 1, expYear: 2025, cvv: '123' }), document: { type: 'V', id: '18366876' } });
    expect(paid.body.transaction.status, paid.text).toBe('approved');
    await moveVesTo('bank_direct');
    return { byBank: byBank.reference, byMercantil: session.reference };
  }

  const refundsSection = (page: Page) => page.getByRole('region', { name: 'Reembolsos' });

  async function openPayment(page: Page, reference: string) {
    await page.goto(`${harness.sandbox.url}/dashboard/#/payments/${reference}`);
    await refundsSection(page).waitFor(WAIT);
    await page.locator('.view > .loading').waitFor({ state: 'detached', ...WAIT });
  }

  /** Submits the refund form and confirms in the dialog; waits for the section's notice. */
  async function submitAndConfirm(page: Page, button: string, done: string) {
    await refundsSection(page).getByRole('button', { name: button }).click();
    await page.getByRole('dialog').getByRole('button', { name: button }).click();
    await refundsSection(page).getByRole('status').filter({ hasText: done }).waitFor(WAIT);
  }

  for (const [device, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`an admin on ${device} refunds in part then in full, records a refund made another way on Mercantil, and exports the list as CSV`, async () => {
      const customerRef = `cliente-reembolso-${randomUUID().slice(0, 8)}`;
      const { byBank, byMercantil } = await payments(customerRef);
      const { page, errors } = await harness.open(viewport);
      await signIn(page, harness.admin);
      await useTestData(page);

      // A partial refund, then the rest: what is left follows the API.
      await openPayment(page, byBank);
      const left = refundsSection(page).locator('.refund-left');
      expect(await left.textContent()).toBe('Bs. 1.250,50');
      expect(await refundsSection(page).getByLabel('Monto').inputValue()).toBe('1250,50');
      await refundsSection(page).getByLabel('Monto').fill('250,50');
      await submitAndConfirm(page, 'Reembolsar', 'Reembolso de Bs. 250,50 hecho.');
      expect(await left.textContent()).toBe('Bs. 1.000,00');
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `refund-partial-${device}`);
      await submitAndConfirm(page, 'Reembolsar', 'Reembolso de Bs. 1.000,00 hecho.');
      expect(await left.textContent()).toBe('Bs. 0,00');
      expect(await refundsSection(page).getByRole('button', { name: 'Reembolsar' }).count()).toBe(0);
      expect(await refundsSection(page).getByRole('table').locator('tbody tr').count()).toBe(2);

      // Mercantil: no refund through the network; a refund made by pago móvil recorded instead.
      await openPayment(page, byMercantil);
      await refundsSection(page).getByText('Mercantil no ofrece reembolsos de pagos con tarjeta.').waitFor(WAIT);
      expect(await refundsSection(page).getByRole('button', { name: 'Reembolsar' }).count()).toBe(0);
      await refundsSection(page).getByLabel('Monto').fill('300');
      await refundsSection(page).getByLabel('Cómo devolviste el dinero').selectOption('pago_movil');
      await refundsSection(page).getByLabel('Referencia de la transferencia o del pago móvil (opcional)').fill('004512398771');
      await submitAndConfirm(page, 'Registrar reembolso', 'Registrado: Bs. 300,00 devuelto por otra vía.');
      expect(await left.textContent()).toBe('Bs. 500,00');
      await refundsSection(page).getByText('Registrado: hecho por otra vía (pago móvil (vuelto))').waitFor(WAIT);
      await refundsSection(page).getByText('Bs. 300,00 devuelto por otra vía (registrado)').waitFor(WAIT);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `refund-recorded-mercantil-${device}`);

      // The list of this customer's payments, downloaded as CSV.
      await page.goto(`${harness.sandbox.url}/dashboard/#/payments?query=${customerRef}`);
      const exportButton = page.getByRole('button', { name: 'Exportar CSV' });
      await exportButton.waitFor(WAIT);
      const [download] = await Promise.all([page.waitForEvent('download', WAIT), exportButton.click()]);
      expect(download.suggestedFilename()).toMatch(/^pagos-test-\d{4}-\d{2}-\d{2}\.csv$/);
      const text = await readFile((await download.path())!, 'utf8');
      expect(text.startsWith('\uFEFF')).toBe(true);
      const [header, ...rows] = parseCsv(text.slice(1));
      expect(header).toEqual([...PAYMENTS_CSV_COLUMNS]);
      const column = (row: string[], name: string) => row[header!.indexOf(name)];
      expect(rows.map((row) => [column(row, 'reference'), column(row, 'network'), column(row, 'amount'), column(row, 'refunded_minor'), column(row, 'refunded_externally_minor'), column(row, 'customer_ref')])).toEqual([
        [byMercantil, 'mercantil', '800.00', '30000', '30000', customerRef],
        [byBank, 'bank_direct', '1250.50', '125050', '0', customerRef],
      ]);
      await page.getByRole('status').filter({ hasText: 'Listo: 2 pagos exportados.' }).waitFor(WAIT);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `payments-export-${device}`);

      // Both are in the audit log.
      await page.goto(`${harness.sandbox.url}/dashboard/#/audit`);
      await page.getByText('Pagos exportados (CSV)').first().waitFor(WAIT);
      await page.getByText('Reembolso creado').first().waitFor(WAIT);
      expect(errors).toEqual([]);
    });
  }

  it('offers a developer no refund, saying who can', async () => {
    const { byBank } = await payments(`cliente-dev-${randomUUID().slice(0, 8)}`);
    for (const viewport of [DESKTOP, PHONE]) {
      const { page } = await harness.open(viewport);
      await signIn(page, developer);
      await useTestData(page);
      await openPayment(page, byBank);
      await refundsSection(page).getByText('Solo un administrador puede reembolsar o registrar un reembolso.').waitFor(WAIT);
      expect(await refundsSection(page).getByRole('button').count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `refund-developer-${viewport === PHONE ? 'phone' : 'desktop'}`);
    }
  });
});
