import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankCredentialsContext, loadBankCredentials } from '../../shared/admin/bank-credentials.ts';
import { AdminError, MerchantNotFoundError } from '../../shared/admin/errors.ts';
import { itemsOfMerchant } from '../support/dynamo.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

describe('loadBankCredentials', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.stop());

  it('stores the credentials sealed for that merchant and gateway only, and loading again replaces them', async () => {
    const { merchant } = await sandbox.newMerchant();
    const first = JSON.stringify({ terminal: 'T-1', secret: 'first-Secret-9c1' });
    const second = JSON.stringify({ terminal: 'T-2', secret: 'second-Secret-4d7' });

    await loadBankCredentials(sandbox.deps, merchant.id, 'card_processor', first);
    await loadBankCredentials(sandbox.deps, merchant.id, 'card_processor', second);

    const stored = JSON.stringify(await itemsOfMerchant(merchant.id));
    expect(stored).not.toContain('Secret-');
    expect((await sandbox.deps.merchants.get(merchant.id))!.credentialsLoaded).toEqual({ card_processor: true });
    const ciphertext = (await sandbox.deps.merchants.getCredentials(merchant.id, 'card_processor'))!;
    expect(await sandbox.deps.secretBox.decrypt(ciphertext, bankCredentialsContext(merchant.id, 'card_processor'))).toBe(second);
    await expect(sandbox.deps.secretBox.decrypt(ciphertext, bankCredentialsContext('mer_other', 'card_processor'))).rejects.toThrow(/another record/);
  });

  it.each([
    ['not JSON', 'user=acme password=hunter2', /not valid JSON/],
    ['a JSON array', '["hunter2"]', /non-empty JSON object/],
    ['an empty object', '{}', /non-empty JSON object/],
  ])('refuses a file that is %s, without echoing it, and stores nothing', async (_, content, message) => {
    const { merchant } = await sandbox.newMerchant();
    const failure = loadBankCredentials(sandbox.deps, merchant.id, 'bank_direct', content);
    await expect(failure).rejects.toThrow(AdminError);
    await expect(failure).rejects.toThrow(message);
    await expect(failure).rejects.not.toThrow(/hunter2/);
    expect((await sandbox.deps.merchants.get(merchant.id))!.credentialsLoaded).toEqual({});
    expect(await sandbox.deps.merchants.getCredentials(merchant.id, 'bank_direct')).toBeNull();
  });

  it('refuses an unknown merchant', async () => {
    await expect(loadBankCredentials(sandbox.deps, 'mer_unknown', 'bank_direct', '{"a":"b"}')).rejects.toThrow(MerchantNotFoundError);
  });
});
