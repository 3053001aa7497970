import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckoutSessionSchema } from '../../shared/schemas/checkout-responses.ts';
import { checkoutCharge, openSession } from '../support/checkout.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

/** A real 1x1 PNG (signature, IHDR, IDAT, IEND), so the bytes served can be compared with the bytes stored. */
function onePixelPng(): Uint8Array {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => (bytes.reduce((c, b) => crcTable[(c ^ b) & 0xff]! ^ (c >>> 8), 0xffffffff) ^ 0xffffffff) >>> 0;
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.from([0, 11, 87, 208]))), chunk('IEND', Buffer.alloc(0))]);
}

describe('checkout: whom the buyer pays', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ keyCacheTtlMs: 0 });
  });
  afterAll(() => sandbox.stop());

  it('the checkout read names the merchant: its account name until a business name is set, then that name and the logo URL', async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    const session = await openSession(sandbox, keys.secretTest);
    const before = await sandbox.request('GET', `/v1/checkout/sessions/${session.reference}`);
    expect(CheckoutSessionSchema.parse(before.body).merchant).toEqual({ businessName: 'Test merchant', logoUrl: null });

    const logo = onePixelPng();
    const branded = await sandbox.deps.merchants.updateBranding(merchant.id, { businessName: 'Café Ávila', logo: { contentType: 'image/png', bytes: logo } });
    const after = await sandbox.request('GET', `/v1/checkout/sessions/${session.reference}`);
    expect(after.body.merchant).toEqual({ businessName: 'Café Ávila', logoUrl: `/v1/checkout/logos/${merchant.id}/${branded.logo!.hash}` });

    const image = await fetch(`${sandbox.url}${after.body.merchant.logoUrl}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(new Uint8Array(logo));
  });

  it('an old or unknown logo URL answers 404 in the JSON error shape, and a malformed one 400', async () => {
    const { merchant } = await sandbox.newMerchant();
    const first = await sandbox.deps.merchants.updateBranding(merchant.id, { logo: { bytes: onePixelPng() } });
    const jpeg = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 1, 2]);
    await sandbox.deps.merchants.updateBranding(merchant.id, { logo: { bytes: jpeg } });

    const old = await sandbox.request('GET', `/v1/checkout/logos/${merchant.id}/${first.logo!.hash}`);
    expect(old.status).toBe(404);
    expect(old.body).toMatchObject({ statusCode: 404, code: 'resource_missing' });
    const other = await sandbox.request('GET', `/v1/checkout/logos/mer_nobody/${first.logo!.hash}`);
    expect(other.status).toBe(404);
    const malformed = await sandbox.request('GET', `/v1/checkout/logos/${merchant.id}/not-a-hash`);
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ code: 'parameter_invalid', field: 'path.hash' });
  });

  it('the receipt needs only what the answers carry: reference, createdAt, amount, brand, last four and funding; never more of the card', async () => {
    const { keys } = await sandbox.newMerchant();
    const session = await openSession(sandbox, keys.secretTest);
    const charged = await checkoutCharge(sandbox, session.reference);
    const page = await sandbox.request('GET', `/v1/checkout/sessions/${session.reference}`);
    for (const transaction of [charged.body.transaction, page.body.lastTransaction]) {
      expect(transaction).toMatchObject({ status: 'approved', card: { brand: 'visa', lastFour: '1111' }, amountMinor: 1050, currency: 'VES' });
      expect(transaction.reference).toMatch(/^txn_/);
      expect(new Date(transaction.createdAt).toISOString()).toBe(transaction.createdAt);
      // funding: debit or credit where a source tells (null here: the sandbox bank does not), nothing of the number.
      expect(transaction.card).toEqual({ brand: 'visa', lastFour: '1111', funding: null });
    }
    expect(`${charged.text}${page.text}`).not.toMatch(/4111111111111111|"cvv"/);
  });
});
