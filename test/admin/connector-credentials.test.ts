import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBankCredentials } from '../../shared/admin/bank-credentials.ts';
import { SIMULATOR_CREDENTIAL_SET, SIMULATOR_TEST_CREDENTIALS } from '../../shared/connectors/mercantil/credentials.ts';
import { ValidationError } from '../../shared/errors.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

describe("credentials checked against their connector's schema when loaded", () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.stop());

  it('refuses Mercantil credentials without the secret key with a 400 naming the field, never echoing values, storing nothing', async () => {
    const { merchant } = await sandbox.newMerchant();
    const { secretKey: _, ...withoutSecret } = SIMULATOR_CREDENTIAL_SET;
    const failure = loadBankCredentials(sandbox.deps, merchant.id, 'mercantil', JSON.stringify({ ...withoutSecret, clientId: 'client-Hunter2' }));

    await expect(failure).rejects.toBeInstanceOf(ValidationError);
    await expect(failure).rejects.toMatchObject({ statusCode: 400, code: 'credentials_invalid', options: { field: 'secretKey' } });
    await expect(failure).rejects.toThrow('The mercantil credentials are refused: secretKey is missing.');
    await expect(failure).rejects.not.toThrow(/Hunter2/);
    expect((await sandbox.deps.merchants.get(merchant.id))!.credentialsLoaded).toEqual({});
  });

  it('refuses a merchantId that is not a number, and loads a complete set', async () => {
    const { merchant } = await sandbox.newMerchant();
    const wrong = loadBankCredentials(sandbox.deps, merchant.id, 'mercantil', JSON.stringify({ test: { ...SIMULATOR_CREDENTIAL_SET, merchantId: 'abc' } }));
    await expect(wrong).rejects.toMatchObject({ statusCode: 400, options: { field: 'test.merchantId' } });
    await expect(wrong).rejects.toThrow(/test\.merchantId is invalid \(/);

    await loadBankCredentials(sandbox.deps, merchant.id, 'mercantil', JSON.stringify(SIMULATOR_TEST_CREDENTIALS));
    expect((await sandbox.deps.merchants.get(merchant.id))!.credentialsLoaded).toEqual({ mercantil: true });
  });

  it('takes a production set at the top level, a sandbox set under test, or both; never half a set', async () => {
    const { merchant } = await sandbox.newMerchant();
    const production = { ...SIMULATOR_CREDENTIAL_SET, clientId: 'production-client' };
    const half = loadBankCredentials(sandbox.deps, merchant.id, 'mercantil', JSON.stringify({ clientId: 'production-client', test: SIMULATOR_CREDENTIAL_SET }));
    await expect(half).rejects.toMatchObject({ statusCode: 400, code: 'credentials_invalid', options: { field: 'secretKey' } });
    const unknownSlot = loadBankCredentials(sandbox.deps, merchant.id, 'mercantil', JSON.stringify({ live: production }));
    await expect(unknownSlot).rejects.toThrow('The mercantil credentials are refused: live is not one of its fields.');
    expect((await sandbox.deps.merchants.get(merchant.id))!.credentialsLoaded).toEqual({});

    for (const loaded of [production, { test: SIMULATOR_CREDENTIAL_SET }, { ...production, test: SIMULATOR_CREDENTIAL_SET }]) {
      await loadBankCredentials(sandbox.deps, merchant.id, 'mercantil', JSON.stringify(loaded));
    }
    expect((await sandbox.deps.merchants.get(merchant.id))!.credentialsLoaded).toEqual({ mercantil: true });
  });
});
