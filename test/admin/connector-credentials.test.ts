import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBankCredentials } from '../../shared/admin/bank-credentials.ts';
import { SIMULATOR_TEST_CREDENTIALS } from '../../shared/connectors/mercantil/credentials.ts';
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
    const { secretKey: _, ...withoutSecret } = SIMULATOR_TEST_CREDENTIALS;
    const failure = loadBankCredentials(sandbox.deps, merchant.id, 'mercantil', JSON.stringify({ ...withoutSecret, clientId: 'client-Hunter2' }));

    await expect(failure).rejects.toBeInstanceOf(ValidationError);
    await expect(failure).rejects.toMatchObject({ statusCode: 400, code: 'credentials_invalid', options: { field: 'secretKey' } });
    await expect(failure).rejects.toThrow('The mercantil credentials are refused: secretKey is missing.');
    await expect(failure).rejects.not.toThrow(/Hunter2/);
    expect((await sandbox.deps.merchants.get(merchant.id))!.credentialsLoaded).toEqual({});
  });

  it('refuses a merchantId that is not a number, and loads a complete set', async () => {
    const { merchant } = await sandbox.newMerchant();
    const wrong = loadBankCredentials(sandbox.deps, merchant.id, 'mercantil', JSON.stringify({ ...SIMULATOR_TEST_CREDENTIALS, merchantId: 'abc' }));
    await expect(wrong).rejects.toMatchObject({ statusCode: 400, options: { field: 'merchantId' } });
    await expect(wrong).rejects.toThrow(/merchantId is invalid \(/);

    await loadBankCredentials(sandbox.deps, merchant.id, 'mercantil', JSON.stringify(SIMULATOR_TEST_CREDENTIALS));
    expect((await sandbox.deps.merchants.get(merchant.id))!.credentialsLoaded).toEqual({ mercantil: true });
  });
});
