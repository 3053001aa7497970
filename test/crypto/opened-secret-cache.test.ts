import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../shared/clock.ts';
import { DecryptionError } from '../../shared/crypto/errors.ts';
import { localSecretBox } from '../../shared/crypto/local-secret-box.ts';
import { OPENED_SECRET_TTL_MS, withOpenedSecretCache } from '../../shared/crypto/opened-secret-cache.ts';
import type { SecretBox } from '../../shared/crypto/secret-box.ts';
import { cardNumberContext } from '../../shared/domain/stored-card.ts';

const webhookSecret = { merchantId: 'mer_1', endpointId: 'we_1', purpose: 'webhook_signing_secret' };

/** The real local box, counting how often it is asked to open something. */
function countingBox(): { box: SecretBox; opened: () => number } {
  const inner = localSecretBox(join(mkdtempSync(join(tmpdir(), 'svc-keys-')), 'keys'));
  let opened = 0;
  return {
    box: { encrypt: (p, c) => inner.encrypt(p, c), decrypt: (s, c) => (opened++, inner.decrypt(s, c)) },
    opened: () => opened,
  };
}

describe('withOpenedSecretCache', () => {
  it('opens a secret once per five minutes, then again', async () => {
    const clock = new ManualClock();
    const { box, opened } = countingBox();
    const cached = withOpenedSecretCache(box, clock);
    const sealed = await cached.encrypt('whsec_abc', webhookSecret);
    expect(await cached.decrypt(sealed, webhookSecret)).toBe('whsec_abc');
    clock.advance(OPENED_SECRET_TTL_MS - 1);
    expect(await cached.decrypt(sealed, { ...webhookSecret })).toBe('whsec_abc');
    expect(opened()).toBe(1);
    clock.advance(1);
    expect(await cached.decrypt(sealed, webhookSecret)).toBe('whsec_abc');
    expect(opened()).toBe(2);
  });

  it('still refuses a cached ciphertext under another context', async () => {
    const { box } = countingBox();
    const cached = withOpenedSecretCache(box, new ManualClock());
    const sealed = await cached.encrypt('whsec_abc', webhookSecret);
    await cached.decrypt(sealed, webhookSecret);
    await expect(cached.decrypt(sealed, { ...webhookSecret, endpointId: 'we_2' })).rejects.toBeInstanceOf(DecryptionError);
  });

  it('never keeps a card number, and never keeps a failure', async () => {
    const { box, opened } = countingBox();
    const cached = withOpenedSecretCache(box, new ManualClock());
    const card = cardNumberContext('mer_1', 'vr_1');
    const sealedCard = await cached.encrypt('4111111111111111', card);
    await cached.decrypt(sealedCard, card);
    await cached.decrypt(sealedCard, card);
    expect(opened()).toBe(2);

    const sealed = await cached.encrypt('whsec_abc', webhookSecret);
    const tampered = sealed.slice(0, -4) + (sealed.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    await expect(cached.decrypt(tampered, webhookSecret)).rejects.toBeInstanceOf(DecryptionError);
    await expect(cached.decrypt(tampered, webhookSecret)).rejects.toBeInstanceOf(DecryptionError);
    expect(opened()).toBe(4);
  });
});
