import { describe, expect, it } from 'vitest';
import {
  cardFingerprintInput,
  cardStatusAt,
  decideVaulting,
  dueExpiringNotice,
  verificationEstimate,
  verifiedNow,
} from '../../shared/domain/stored-card.ts';

const DAY = 86_400_000;

describe('decideVaulting: the de-duplication rule', () => {
  it('stores a new record when the customer has no such card', () => {
    expect(decideVaulting(null)).toEqual({ kind: 'store' });
  });
  it('reuses the record when the same customer pays again with the same card', () => {
    expect(decideVaulting({ svcToken: 'tok_svc_a', status: 'active' })).toEqual({ kind: 'reuse', svcToken: 'tok_svc_a' });
  });
  it('replaces a match whose card was deleted with a new record', () => {
    expect(decideVaulting({ svcToken: 'tok_svc_a', status: 'deleted' })).toEqual({ kind: 'replace_deleted', svcToken: 'tok_svc_a' });
  });
});

describe('cardFingerprintInput: what "the same card" means', () => {
  const base = cardFingerprintInput('mer_1', '4111111111111111', 12, 2030);
  it('is equal for the same merchant, number and expiry', () => {
    expect(cardFingerprintInput('mer_1', '4111111111111111', 12, 2030)).toBe(base);
  });
  it('differs for another expiry', () => {
    expect(cardFingerprintInput('mer_1', '4111111111111111', 11, 2030)).not.toBe(base);
    expect(cardFingerprintInput('mer_1', '4111111111111111', 12, 2031)).not.toBe(base);
  });
  it('differs for another merchant, so fingerprints never match across merchants', () => {
    expect(cardFingerprintInput('mer_2', '4111111111111111', 12, 2030)).not.toBe(base);
  });
  it('cannot be confused by month padding (1/2030 versus 12/030)', () => {
    expect(cardFingerprintInput('mer_1', '4111111111111111', 1, 2030)).not.toBe(cardFingerprintInput('mer_1', '4111111111111111', 12, 30));
  });
});

describe('cardStatusAt', () => {
  it('reads active until the end of the expiry month', () => {
    expect(cardStatusAt({ status: 'active', expMonth: 12, expYear: 2030 }, Date.UTC(2030, 11, 31, 23, 59))).toBe('active');
  });
  it('reads expired from the first day after the expiry month', () => {
    expect(cardStatusAt({ status: 'active', expMonth: 12, expYear: 2030 }, Date.UTC(2031, 0, 1))).toBe('expired');
  });
  it('keeps deleted whatever the date', () => {
    expect(cardStatusAt({ status: 'deleted', expMonth: 12, expYear: 2030 }, Date.UTC(2020, 0, 1))).toBe('deleted');
  });
});

describe('gateway verification', () => {
  const at = Date.UTC(2026, 10, 30, 10);
  it('estimates the end three calendar months after the verification', () => {
    expect(new Date(verificationEstimate(Date.UTC(2026, 0, 15, 10))).toISOString()).toBe('2026-04-15T10:00:00.000Z');
  });
  it('keeps the estimate within its month when the day does not exist there', () => {
    expect(new Date(verificationEstimate(at)).toISOString()).toBe('2027-02-28T10:00:00.000Z');
  });
  it('sets active, the verification time and the estimate on the periodic gateway, nothing elsewhere', () => {
    expect(verifiedNow('bank_otp', at)).toEqual({
      gatewayAuthStatus: 'active',
      gatewayAuthenticatedAt: new Date(at).toISOString(),
      gatewayAuthExpiresAt: new Date(verificationEstimate(at)).toISOString(),
      authNoticesSent: [],
    });
    expect(verifiedNow('bank_direct', at)).toEqual({ gatewayAuthStatus: null, gatewayAuthenticatedAt: null, gatewayAuthExpiresAt: null, authNoticesSent: [] });
  });

  const end = Date.UTC(2027, 2, 1, 12);
  const card = (authNoticesSent: number[], overrides = {}) => ({
    status: 'active' as const,
    gatewayAuthStatus: 'active' as const,
    gatewayAuthExpiresAt: new Date(end).toISOString(),
    authNoticesSent,
    ...overrides,
  });
  it.each([
    ['16 days left: no notice yet', [], end - 15 * DAY - 1, null],
    ['15 days left: the 15-day notice', [], end - 15 * DAY, { days: 15, daysLeft: 15 }],
    ['15 days left, already sent: nothing', [15], end - 15 * DAY, null],
    ['8 days left: nothing between notices', [15], end - 7 * DAY - 1, null],
    ['7 days left: the 7-day notice', [15], end - 7 * DAY, { days: 7, daysLeft: 7 }],
    ['1 day left: the 1-day notice', [15, 7], end - 1, { days: 1, daysLeft: 1 }],
    ['missed days: only the latest notice, not the stale ones', [], end - 3 * DAY, { days: 7, daysLeft: 3 }],
    ['past the estimate: nothing (the gateway decides)', [], end + 1, null],
  ] as const)('%s', (_label, sent, now, expected) => {
    expect(dueExpiringNotice(card([...sent]), now)).toEqual(expected);
  });
  it.each([
    ['deleted', { status: 'deleted' as const }],
    ['waiting for the customer to verify again', { gatewayAuthStatus: 'requires_authentication' as const }],
    ['never verified', { gatewayAuthStatus: null, gatewayAuthExpiresAt: null }],
  ])('sends nothing for a card %s', (_label, overrides) => {
    expect(dueExpiringNotice(card([], overrides), end - DAY)).toBeNull();
  });
});
