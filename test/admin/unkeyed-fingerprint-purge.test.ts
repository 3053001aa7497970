import { createHash, randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { PURGED_FINGERPRINT, purgeUnkeyedFingerprints } from '../../shared/admin/unkeyed-fingerprint-purge.ts';
import { createIdempotencyStore, type IdempotencyScope } from '../../shared/store/idempotency-store.ts';
import { keys } from '../../shared/store/keys.ts';
import { CLI_TEST_TIMEOUT_MS, runAdminCli } from '../support/admin-cli.ts';
import { testConnection, testDb } from '../support/dynamo.ts';

describe('purgeUnkeyedFingerprints', () => {
  const db = testDb();
  const { tableName } = testConnection();
  const store = createIdempotencyStore(db, tableName);
  afterAll(() => db.destroy());

  const scope = (operation: string): IdempotencyScope => ({ merchantId: `mer_${randomUUID()}`, mode: 'test', operation, key: randomUUID() });
  const fingerprintOf = async (s: IdempotencyScope) =>
    (await db.send(new GetCommand({ TableName: tableName, Key: keys.idempotency(s.merchantId, s.mode, s.operation, s.key) }))).Item?.fingerprint;

  it('replaces the unkeyed fingerprints of card-data operations only, and a retry of such a key is refused, never replayed', async () => {
    // As written before the fix: an unkeyed SHA-256 of a body with a card number and CVV.
    const unkeyed = createHash('sha256').update('POST /v1/checkout/charge\n{"card":{"cvv":"123","number":"4111111111111111"}}').digest('hex');
    const oldCharge = scope('POST /v1/checkout/charge');
    const keyedCharge = scope('POST /v1/checkout/charge');
    const session = scope('POST /v1/sessions');
    const sessionFingerprint = createHash('sha256').update('POST /v1/sessions\n{}').digest('hex');
    const now = Date.now();
    for (const [s, fp] of [[oldCharge, unkeyed], [keyedCharge, 'hmac:abc'], [session, sessionFingerprint]] as const) {
      const claim = await store.claim(s, fp, now);
      if (claim.kind !== 'claimed') throw new Error('not claimed');
      await store.complete(claim.claim, { statusCode: 200, body: { ok: true } });
    }

    const first = await purgeUnkeyedFingerprints(db, tableName);
    expect(first.purged).toBeGreaterThanOrEqual(1);
    expect(await fingerprintOf(oldCharge)).toBe(PURGED_FINGERPRINT);
    expect(await fingerprintOf(keyedCharge)).toBe('hmac:abc');
    expect(await fingerprintOf(session)).toBe(sessionFingerprint);
    expect((await store.claim(oldCharge, unkeyed, now)).kind).toBe('mismatch');

    // Run again: nothing left to purge of ours, and what was purged stays purged.
    await purgeUnkeyedFingerprints(db, tableName);
    expect(await fingerprintOf(oldCharge)).toBe(PURGED_FINGERPRINT);
  });

  it('runs from the admin CLI as `idempotency purge-unkeyed`', { timeout: CLI_TEST_TIMEOUT_MS }, async () => {
    const old = scope('POST /v1/checkout/charge');
    const claim = await store.claim(old, createHash('sha256').update(randomUUID()).digest('hex'), Date.now());
    if (claim.kind !== 'claimed') throw new Error('not claimed');
    const run = await runAdminCli(['idempotency', 'purge-unkeyed', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { examined: number; purged: number };
    expect(result.purged).toBeGreaterThanOrEqual(1);
    expect(await fingerprintOf(old)).toBe(PURGED_FINGERPRINT);
  });
});
