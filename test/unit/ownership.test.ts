import { describe, expect, it } from 'vitest';
import { ownedBy, requireOwned } from '../../shared/auth/ownership.ts';
import { NotFoundError } from '../../shared/errors.ts';

describe('ownedBy', () => {
  const caller = { merchant: { id: 'mer_a' }, mode: 'live' as const };

  it("is true only for the caller's merchant in the caller's mode", () => {
    expect(ownedBy({ merchantId: 'mer_a', mode: 'live' }, caller)).toBe(true);
    expect(ownedBy({ merchantId: 'mer_b', mode: 'live' }, caller)).toBe(false);
    expect(ownedBy({ merchantId: 'mer_a', mode: 'test' }, caller)).toBe(false);
    expect(ownedBy(null, caller)).toBe(false);
    expect(ownedBy(undefined, caller)).toBe(false);
  });

  it("with anyMode accepts the merchant's other mode, never another merchant", () => {
    expect(ownedBy({ merchantId: 'mer_a', mode: 'test' }, caller, { anyMode: true })).toBe(true);
    expect(ownedBy({ merchantId: 'mer_b', mode: 'live' }, caller, { anyMode: true })).toBe(false);
  });
});

describe('requireOwned', () => {
  const caller = { merchant: { id: 'mer_a' }, mode: 'test' as const };

  it('answers the resource itself when the caller owns it', () => {
    const card = { merchantId: 'mer_a', mode: 'test' as const, svcToken: 'svc_1' };
    expect(requireOwned(card, caller, { resource: 'card', field: 'svcToken' })).toBe(card);
  });

  it.each([
    ['missing', null],
    ["another merchant's", { merchantId: 'mer_b', mode: 'test' as const }],
    ["the other mode's", { merchantId: 'mer_a', mode: 'live' as const }],
  ])('answers a %s resource with 404 resource_missing naming the parameter', (_, resource) => {
    let thrown: unknown;
    try {
      requireOwned(resource, caller, { resource: 'webhook endpoint', field: 'id' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(NotFoundError);
    expect(thrown).toMatchObject({ statusCode: 404, code: 'resource_missing', message: 'No such webhook endpoint.', options: { field: 'id' } });
  });
});
