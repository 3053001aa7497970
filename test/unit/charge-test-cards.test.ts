import { describe, expect, it } from 'vitest';
import { cardBehaviour, TEST_CARDS } from '../../infra/sandbox/bank/test-cards.ts';

const NOW = Date.UTC(2026, 10, 21, 12, 0);

describe('the sandbox bank test cards', () => {
  it.each([
    ['4111111111111111', { kind: 'approve' }],
    ['5555555555554444', { kind: 'approve' }],
    ['4000000000000002', { kind: 'decline', code: '0051' }],
    ['4000000000000127', { kind: 'decline', code: '0082' }],
    ['4000000000000119', { kind: 'error', code: '0096' }],
    ['4000000000009961', { kind: 'decline', code: '0041' }],
    ['4000000000009979', { kind: 'decline', code: '0043' }],
    ['4000000000003220', { kind: 'otp' }],
    ['4000000000009995', { kind: 'timeout' }],
    ['4242424242424242', { kind: 'decline', code: '0005' }],
  ])('%s behaves as the catalogue says', (number, behaviour) => {
    expect(cardBehaviour({ number, expMonth: 12, expYear: 2030 }, NOW)).toMatchObject(behaviour);
  });

  it('declines any card with a past expiry with 0120, whatever its number', () => {
    for (const number of Object.keys(TEST_CARDS)) {
      expect(cardBehaviour({ number, expMonth: 10, expYear: 2026 }, NOW)).toMatchObject({ kind: 'decline', code: '0120' });
    }
  });

  it('accepts a card until the end of its expiry month', () => {
    expect(cardBehaviour({ number: '4111111111111111', expMonth: 11, expYear: 2026 }, NOW)).toEqual({ kind: 'approve' });
  });
});
