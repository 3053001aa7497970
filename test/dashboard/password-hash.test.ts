import { describe, expect, it } from 'vitest';
import { hashPassword, PASSWORD_COST, unmatchableHash, verifyPassword } from '../../shared/dashboard/password-hash.ts';

describe('dashboard password hashes (the sandbox directory)', () => {
  it('store their scrypt cost, so a hash made at one cost still verifies after the default changes', async () => {
    const byDefault = await hashPassword('Cafe-con-leche-2026');
    const cheap = await hashPassword('Cafe-con-leche-2026', { N: 1024, r: 8, p: 1 });
    expect(byDefault).toMatch(new RegExp(`^scrypt\\$${PASSWORD_COST.N}\\$8\\$1\\$`));
    expect(cheap).toMatch(/^scrypt\$1024\$8\$1\$/);
    for (const stored of [byDefault, cheap]) {
      expect(await verifyPassword('Cafe-con-leche-2026', stored)).toBe(true);
      expect(await verifyPassword('cafe-con-leche-2026', stored)).toBe(false);
    }
  });

  it('never match the unmatchable hash of an unknown email, which costs what a real one costs', async () => {
    expect(unmatchableHash()).toMatch(new RegExp(`^scrypt\\$${PASSWORD_COST.N}\\$`));
    expect(unmatchableHash({ N: 1024, r: 8, p: 1 })).toMatch(/^scrypt\$1024\$/);
    expect(await verifyPassword('', unmatchableHash({ N: 1024, r: 8, p: 1 }))).toBe(false);
    expect(await verifyPassword('anything', 'not-a-hash')).toBe(false);
  });
});
