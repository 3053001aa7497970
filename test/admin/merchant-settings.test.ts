import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminError, MerchantNotFoundError } from '../../shared/admin/errors.ts';
import { describeMerchant, provisionMerchant, setPagoMovil, setRateLimit, setTestMode } from '../../shared/admin/merchant-settings.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

describe('merchant settings', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.stop());

  const openSession = (key: string) => sandbox.request('POST', '/v1/sessions', { key, body: { amountMinor: 1050, currency: 'VES' } });

  it('test mode off: the test key gets 409 test_mode_off telling to use the live key, the live key still works', async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    expect((await openSession(keys.secretTest)).status).toBe(201);

    const updated = await setTestMode(sandbox.deps, merchant.id, 'bank_direct', false);
    expect(updated.testMode.bank_direct).toBe(false);
    sandbox.advance(31);

    const refused = await openSession(keys.secretTest);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('test_mode_off');
    expect(refused.body.message).toMatch(/live secret key \(sk_live_\.\.\.\)/);
    expect((await openSession(keys.secretLive)).status).toBe(201);

    await setTestMode(sandbox.deps, merchant.id, 'bank_direct', true);
    sandbox.advance(31);
    expect((await openSession(keys.secretTest)).status).toBe(201);
  });

  it('puts a merchant on pago móvil per method: a network that offers it, a mobile phone, a RIF with its check digit; refusals change nothing', async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    const payee = { phone: '+58 424-111.22.33', rif: 'j070133805' };
    await expect(setPagoMovil(sandbox.deps, merchant.id, 'pago_movil_c2p', 'bank_direct', payee)).rejects.toThrow('The bank_direct gateway does not offer pago_movil_c2p. It is offered by: mercantil.');
    await expect(setPagoMovil(sandbox.deps, merchant.id, 'pago_movil_p2c', 'bank_direct', payee)).rejects.toThrow('The bank_direct gateway does not offer pago_movil_p2c. It is offered by: mercantil.');
    await expect(setPagoMovil(sandbox.deps, merchant.id, 'pago_movil_c2p', 'mercantil', { ...payee, phone: '0212-555-1234' })).rejects.toThrow('not a Venezuelan mobile phone');
    await expect(setPagoMovil(sandbox.deps, merchant.id, 'pago_movil_c2p', 'mercantil', { ...payee, rif: 'J-07013380-4' })).rejects.toThrow(AdminError);
    await expect(setPagoMovil(sandbox.deps, 'mer_missing', 'pago_movil_c2p', 'mercantil', payee)).rejects.toThrow(MerchantNotFoundError);
    expect((await sandbox.deps.merchants.get(merchant.id))!.pagoMovil).toBeUndefined();

    const updated = await setPagoMovil(sandbox.deps, merchant.id, 'pago_movil_c2p', 'mercantil', payee);
    expect(updated.pagoMovil).toEqual({ gateways: { pago_movil_c2p: 'mercantil' }, payee: { phone: '04241112233', rif: 'J-07013380-5' } });
    sandbox.advance(31);
    const session = await sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, body: { amountMinor: 1050, currency: 'VES' } });
    expect(session.body.paymentMethods).toEqual(['card', 'pago_movil_c2p']);
  });

  it('refuses test mode on for a gateway without a test environment, and changes nothing', async () => {
    const { merchant } = await sandbox.newMerchant();
    await expect(setTestMode(sandbox.deps, merchant.id, 'card_processor', true)).rejects.toThrow(
      'The card_processor gateway has no test environment, so test mode cannot be switched on for it.',
    );
    expect((await sandbox.deps.merchants.get(merchant.id))!.testMode).toEqual({ bank_direct: true });
  });

  it('an unprovisioned merchant gets 409 merchant_not_provisioned until provisioned', async () => {
    const { merchant, keys } = await sandbox.newMerchant({ provisioned: false });
    const refused = await openSession(keys.secretTest);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('merchant_not_provisioned');

    expect((await provisionMerchant(sandbox.deps, merchant.id)).provisioned).toBe(true);
    sandbox.advance(31);
    expect((await openSession(keys.secretTest)).status).toBe(201);
  });

  it('a limit override is enforced by the API', async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    await setRateLimit(sandbox.deps, merchant.id, 'sessions', { perMinute: 2, perDay: 2 });

    expect((await openSession(keys.secretTest)).status).toBe(201);
    expect((await openSession(keys.secretTest)).status).toBe(201);
    const limited = await openSession(keys.secretTest);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('refuses limits that are not whole positive numbers or a day below a minute', async () => {
    const { merchant } = await sandbox.newMerchant();
    await expect(setRateLimit(sandbox.deps, merchant.id, 'reads', { perMinute: 0, perDay: 10 })).rejects.toThrow(AdminError);
    await expect(setRateLimit(sandbox.deps, merchant.id, 'reads', { perMinute: 1.5, perDay: 10 })).rejects.toThrow(AdminError);
    await expect(setRateLimit(sandbox.deps, merchant.id, 'reads', { perMinute: 10, perDay: 9 })).rejects.toThrow(/cannot be lower/);
    expect((await sandbox.deps.merchants.get(merchant.id))!.rateLimits).toEqual({});
  });

  it('describes configuration, limits in force and key hints, never a clear key', async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    await setRateLimit(sandbox.deps, merchant.id, 'charge', { perMinute: 60, perDay: 5000 });

    const overview = await describeMerchant(sandbox.deps, merchant.id);

    expect(overview.merchant).toMatchObject({ id: merchant.id, provisioned: true, testMode: { bank_direct: true } });
    expect(overview.limits).toEqual({
      charge: { perMinute: 60, perDay: 5000, overridden: true },
      sessions: { perMinute: 240, perDay: 20_000, overridden: false },
      reads: { perMinute: 600, perDay: 100_000, overridden: false },
      refunds: { perMinute: 120, perDay: 10_000, overridden: false },
      server_charges: { perMinute: 120, perDay: 10_000, overridden: false },
    });
    expect(overview.keys.map((k) => k.hint).sort()).toEqual(Object.values(keys).map((k) => `${k.slice(0, 8)}...${k.slice(-4)}`).sort());
    const shown = JSON.stringify(overview);
    for (const key of Object.values(keys)) expect(shown).not.toContain(key);
  });

  it('refuses an unknown merchant', async () => {
    await expect(describeMerchant(sandbox.deps, 'mer_unknown')).rejects.toThrow(MerchantNotFoundError);
    await expect(provisionMerchant(sandbox.deps, 'mer_unknown')).rejects.toThrow(MerchantNotFoundError);
    await expect(setTestMode(sandbox.deps, 'mer_unknown', 'bank_direct', false)).rejects.toThrow(MerchantNotFoundError);
  });
});
