/**
 * The sandbox control "a buyer sent a pago móvil of X to this merchant" (POST /__sandbox/pago-movil/payments), through
 * the sandbox's HTTP API: what it records is what the Mercantil simulator's ledger holds, and so what the bank's
 * search finds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

const PATH = '/__sandbox/pago-movil/payments';

describe('POST /__sandbox/pago-movil/payments', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox?.stop());

  const caracasToday = () => new Date(sandbox.clock.now() - 4 * 3_600_000).toISOString().slice(0, 10);

  it('records the payment in the simulator ledger and answers it as the bank recorded it, 201', async () => {
    const res = await sandbox.request('POST', PATH, { body: { amountMinor: 5250, payerPhone: '+58 414-123.45.67', payerBankCode: '0134', reference: '0084840003380', date: '2025-03-17' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      reference: '0084840003380',
      payerPhone: '04141234567',
      payerBankCode: '0134',
      payerBankName: 'Banesco',
      amountMinor: 5250,
      currency: 'VES',
      date: '2025-03-17',
      authorizationCode: '003380',
    });
    expect(sandbox.mercantil.pagoMovil.incomingPayments()).toContainEqual({
      reference: '0084840003380',
      payerPhone: '584141234567',
      payerBankId: 134,
      payerDocument: null,
      amountMinor: 5250,
      date: '2025-03-17',
      authorizationCode: '003380',
    });
  });

  it('generates the reference and takes Mercantil and the sandbox clock\'s Caracas day when they are absent', async () => {
    const res = await sandbox.request('POST', PATH, { body: { amountMinor: 100, payerPhone: '4141234567' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ payerBankCode: '0105', payerBankName: 'Mercantil', date: caracasToday(), payerPhone: '04141234567' });
    expect(res.body.reference).toMatch(/^\d{11}$/);
  });

  it('lists the received payments newest first, each phone masked to its last four', async () => {
    const sent = await sandbox.request('POST', PATH, { body: { amountMinor: 777, payerPhone: '04240000123' } });
    const res = await sandbox.request('GET', PATH);
    expect(res.status).toBe(200);
    expect(res.body.data[0]).toEqual({ ...sent.body, payerPhone: '*******0123' });
    expect(res.body.data).toHaveLength(sandbox.mercantil.pagoMovil.incomingPayments().length);
    expect(res.text).not.toContain('04240000123');
  });

  it('answers bad input 400 naming the field, and records nothing', async () => {
    const before = sandbox.mercantil.pagoMovil.incomingPayments().length;
    await sandbox.request('POST', PATH, { body: { amountMinor: 1, payerPhone: '04141234567', reference: '55550001' } });
    const cases: [unknown, number, string, string][] = [
      [{ payerPhone: '04141234567' }, 400, 'parameter_missing', 'amountMinor'],
      [{ amountMinor: 10.5, payerPhone: '04141234567' }, 400, 'parameter_invalid', 'amountMinor'],
      [{ amountMinor: 0, payerPhone: '04141234567' }, 400, 'parameter_invalid', 'amountMinor'],
      [{ amountMinor: 100 }, 400, 'parameter_missing', 'payerPhone'],
      [{ amountMinor: 100, payerPhone: '0212 555 1234' }, 400, 'parameter_invalid', 'payerPhone'],
      [{ amountMinor: 100, payerPhone: '04141234567', payerBankCode: '0999' }, 400, 'parameter_invalid', 'payerBankCode'],
      [{ amountMinor: 100, payerPhone: '04141234567', reference: '12ab' }, 400, 'parameter_invalid', 'reference'],
      [{ amountMinor: 100, payerPhone: '04141234567', reference: '1234567890123456' }, 400, 'parameter_invalid', 'reference'],
      // The same bank's reference again, leading zeros aside: banks number their payments uniquely.
      [{ amountMinor: 100, payerPhone: '04141234567', reference: '0055550001' }, 400, 'parameter_invalid', 'reference'],
      [{ amountMinor: 100, payerPhone: '04141234567', date: '2025-02-30' }, 400, 'parameter_invalid', 'date'],
      [{ amountMinor: 100, payerPhone: '04141234567', date: '2999-01-01' }, 400, 'parameter_invalid', 'date'],
      [{ amountMinor: 100, payerPhone: '04141234567', cedula: 'V1' }, 400, 'parameter_invalid', 'cedula'],
    ];
    for (const [body, status, code, field] of cases) {
      const res = await sandbox.request('POST', PATH, { body });
      expect({ body, status: res.status, code: res.body.code, field: res.body.field }).toEqual({ body, status, code, field });
      expect(res.body.message).toEqual(expect.stringContaining(field));
    }
    const broken = await sandbox.request('POST', PATH, { rawBody: '{"amountMinor":', headers: { 'content-type': 'application/json' } });
    expect([broken.status, broken.body.code]).toEqual([400, 'invalid_json']);
    expect(sandbox.mercantil.pagoMovil.incomingPayments()).toHaveLength(before + 1);
  });

  it('refuses a page of another site, like the other controls, and records nothing', async () => {
    const before = sandbox.mercantil.pagoMovil.incomingPayments().length;
    const body = JSON.stringify({ amountMinor: 100, payerPhone: '04141234567' });
    const post = (headers: Record<string, string>) => fetch(`${sandbox.url}${PATH}`, { method: 'POST', body, headers });
    const foreign = await post({ 'content-type': 'application/json', origin: 'https://evil.example' });
    expect([foreign.status, ((await foreign.json()) as { code: string }).code]).toEqual([403, 'cross_site_request']);
    const crossSite = await post({ 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    const form = await post({ 'content-type': 'text/plain' });
    expect(form.status).toBe(415);
    const read = await fetch(`${sandbox.url}${PATH}`, { headers: { origin: 'https://evil.example' } });
    expect(read.status).toBe(403);
    expect(sandbox.mercantil.pagoMovil.incomingPayments()).toHaveLength(before);
  });
});
