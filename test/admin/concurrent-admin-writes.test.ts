/**
 * Issue 17 finding 9: admin writes of one merchant running at once (several `limits set` for different classes, test
 * mode of several gateways, provisioning) each print success; none may lose another's change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MerchantNotFoundError } from '../../shared/admin/errors.ts';
import { provisionMerchant, setRateLimit, setTestMode } from '../../shared/admin/merchant-settings.ts';
import { GATEWAY_IDS, OPERATION_CLASSES } from '../../shared/domain/merchant.ts';
import { keys } from '../../shared/store/keys.ts';
import { testDb, testConnection } from '../support/dynamo.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';

const ROUNDS = 6;

describe('concurrent admin writes of one merchant', { timeout: 120_000 }, () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox?.stop());

  it(`keeps every one of ${ROUNDS * OPERATION_CLASSES.length} limit updates of different classes, with test mode and provisioning at the same time`, async () => {
    const { merchant } = await sandbox.newMerchant({ provisioned: false });
    for (let round = 1; round <= ROUNDS; round++) {
      // Every gateway switched off, then only the one with a test environment on again, alternately.
      const testModeOn = round % 2 === 0;
      await Promise.all([
        ...OPERATION_CLASSES.map((operationClass, i) => setRateLimit(sandbox.deps, merchant.id, operationClass, { perMinute: round * 10 + i, perDay: round * 1000 + i })),
        ...GATEWAY_IDS.map((gateway) => setTestMode(sandbox.deps, merchant.id, gateway, testModeOn && gateway === 'bank_direct')),
        ...(round === ROUNDS ? [provisionMerchant(sandbox.deps, merchant.id)] : []),
      ]);
      const stored = (await sandbox.deps.merchants.get(merchant.id))!;
      expect(stored.rateLimits).toEqual(Object.fromEntries(OPERATION_CLASSES.map((c, i) => [c, { perMinute: round * 10 + i, perDay: round * 1000 + i }])));
      expect(stored.testMode).toEqual(Object.fromEntries(GATEWAY_IDS.map((g) => [g, testModeOn && g === 'bank_direct'])));
    }
    expect((await sandbox.deps.merchants.get(merchant.id))!.provisioned).toBe(true);
  });

  it('creates the map when a merchant written before it existed has none', async () => {
    const { merchant } = await sandbox.newMerchant();
    const { tableName } = testConnection();
    await testDb().send(new UpdateCommand({ TableName: tableName, Key: keys.merchant(merchant.id), UpdateExpression: 'REMOVE rateLimits, testMode' }));

    await Promise.all(OPERATION_CLASSES.map((operationClass) => setRateLimit(sandbox.deps, merchant.id, operationClass, { perMinute: 7, perDay: 70 })));
    await setTestMode(sandbox.deps, merchant.id, 'bank_direct', true);

    const stored = (await sandbox.deps.merchants.get(merchant.id))!;
    expect(stored.rateLimits).toEqual(Object.fromEntries(OPERATION_CLASSES.map((c) => [c, { perMinute: 7, perDay: 70 }])));
    expect(stored.testMode).toEqual({ bank_direct: true });
  });

  it('refuses an unknown merchant and writes nothing', async () => {
    await expect(setRateLimit(sandbox.deps, 'mer_missing', 'reads', { perMinute: 1, perDay: 1 })).rejects.toThrow(MerchantNotFoundError);
    await expect(setTestMode(sandbox.deps, 'mer_missing', 'bank_direct', false)).rejects.toThrow(MerchantNotFoundError);
    expect(await sandbox.deps.merchants.get('mer_missing')).toBeNull();
  });
});
