import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionExpiredEvent } from '../../shared/domain/events.ts';
import { newSession, type Session } from '../../shared/domain/session.ts';
import type { ClosedReason, Mode, SessionStatus } from '../../shared/domain/session-state.ts';
import { newId, prefixedId, randomToken } from '../../shared/ids.ts';
import { ConditionFailedError, named, TransactionConditionFailedError } from '../../shared/store/conditions.ts';
import { createOutboxReader } from '../../shared/store/outbox.ts';
import { createSessionStore } from '../../shared/store/session-store.ts';
import { testConnection, testDb } from '../support/dynamo.ts';

const { tableName } = testConnection();
const db = testDb();
const store = createSessionStore(db, tableName);
const outbox = createOutboxReader(db, tableName);
afterAll(() => db.destroy());

// Far in the future, so no TTL sweep ever touches these items while the file runs.
const T0 = Date.UTC(2031, 6, 1, 12, 0, 0);
const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const newMerchantId = () => `mer_sess_${randomToken(10)}`;

/** A session as create-session builds it, created `offsetMs` after T0, with any field changed. */
function aSession(merchantId: string, offsetMs = 0, changes: Partial<Session> = {}, mode: Mode = 'test'): Session {
  const session = newSession(
    { amountMinor: 1050, currency: 'VES', description: 'Order 42', maxFailures: 2, prefill: { cardholderName: 'Ana María', documentType: 'V', documentId: '12345678' } },
    { id: newId(), reference: prefixedId('cs') },
    { merchantId, mode, gateway: 'bank_direct', paymentMethods: ['card'], now: T0 + offsetMs },
  );
  return { ...session, ...changes };
}

/** Creates sessions `batch` at a time: fast, without opening hundreds of connections at once. */
async function createAll(sessions: Session[], batch = 25): Promise<void> {
  for (let i = 0; i < sessions.length; i += batch) await Promise.all(sessions.slice(i, i + batch).map((s) => store.create(s)));
}

const referencesOf = (items: Session[]) => items.map((s) => s.reference);
const expiredEvent = (session: Session, reason: ClosedReason, closedAt: string) => sessionExpiredEvent(session, reason, closedAt);

describe('SessionStore', () => {
  describe('create and get', () => {
    it('reads back exactly the session it created', async () => {
      // prepare
      const session = aSession(newMerchantId(), 0, { lastTransaction: { reference: 'txn_1', status: 'declined', declineReason: 'Fondos insuficientes' } });
      // act
      await store.create(session);
      // assess
      expect(await store.get(session.reference)).toEqual(session);
    });

    it('returns null for a reference that does not exist', async () => {
      expect(await store.get(prefixedId('cs'))).toBeNull();
    });

    it('refuses to create a session whose reference exists', async () => {
      // prepare
      const session = aSession(newMerchantId());
      await store.create(session);
      // act / assess
      await expect(store.create({ ...session, amountMinor: 1 })).rejects.toBeInstanceOf(ConditionFailedError);
      expect((await store.get(session.reference))?.amountMinor).toBe(1050);
    });

    it('writes nothing when an item written with the session fails its condition', async () => {
      // prepare: the companion item is a condition on something that does not exist
      const session = aSession(newMerchantId());
      const failing = named('cardMatch', { ConditionCheck: { TableName: tableName, Key: { pk: `MISSING#${randomToken(12)}`, sk: 'MISSING' }, ConditionExpression: 'attribute_exists(pk)' } });
      // act
      const create = store.create(session, [failing]);
      // assess
      await expect(create).rejects.toBeInstanceOf(TransactionConditionFailedError);
      await expect(create).rejects.toMatchObject({ index: 1, failed: 'cardMatch' });
      expect(await store.get(session.reference)).toBeNull();
      expect((await store.list(session.merchantId, 'test', { page: 1, pageSize: 10, now: T0 })).total).toBe(0);
    });
  });

  describe('close', () => {
    it('writes the closed session and its session.expired event in one transaction', async () => {
      // prepare
      const session = aSession(newMerchantId());
      await store.create(session);
      const closedAt = new Date(T0 + MINUTE).toISOString();
      const event = expiredEvent(session, 'merchant_request', closedAt);
      // act
      const closed = await store.close(session, 'merchant_request', closedAt, event);
      // assess
      const expected = { ...session, status: 'expired', closedReason: 'merchant_request', closedAt, version: session.version + 1 };
      expect(closed).toEqual(expected);
      expect(await store.get(session.reference)).toEqual(expected);
      expect(await outbox.get(event.id)).toEqual({ merchantId: session.merchantId, envelope: event });
      expect(event.data).toEqual({ sessionReference: session.reference, reason: 'merchant_request', failureCount: 0, maxFailures: 2, metadata: {} });
      expect(await outbox.listForMerchant(session.merchantId, 'test')).toEqual([{ merchantId: session.merchantId, envelope: event }]);
    });

    it('lets exactly one of two concurrent closes of the same read version win, with exactly one event', async () => {
      // prepare: several sessions, so the race is run more than once
      const merchantId = newMerchantId();
      const sessions = Array.from({ length: 5 }, (_, i) => aSession(merchantId, i * SECOND));
      await createAll(sessions);
      const closedAt = new Date(T0 + MINUTE).toISOString();
      // act
      const races = await Promise.all(
        sessions.map(async (session) => {
          const events = [expiredEvent(session, 'merchant_request', closedAt), expiredEvent(session, 'expired', closedAt)];
          const outcomes = await Promise.allSettled(events.map((e) => store.close(session, e.data.reason, closedAt, e)));
          return { session, events, outcomes };
        }),
      );
      // assess
      for (const { session, events, outcomes } of races) {
        const winners = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [i] : []));
        const losers = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
        expect(winners).toHaveLength(1);
        expect(losers).toHaveLength(1);
        expect(losers[0]).toBeInstanceOf(ConditionFailedError);
        const winner = events[winners[0]!]!;
        const stored = await Promise.all(events.map((e) => outbox.get(e.id)));
        expect(stored.map((s) => s?.envelope.id ?? null)).toEqual(events.map((e) => (e === winner ? e.id : null)));
        expect(await store.get(session.reference)).toMatchObject({ status: 'expired', closedReason: winner.data.reason, version: session.version + 1 });
      }
      expect(await outbox.listForMerchant(merchantId, 'test')).toHaveLength(sessions.length);
    });

    it('refuses to close from a stale read, once the session has changed', async () => {
      // prepare
      const session = aSession(newMerchantId());
      await store.create(session);
      const closedAt = new Date(T0 + MINUTE).toISOString();
      await store.close(session, 'merchant_request', closedAt, expiredEvent(session, 'merchant_request', closedAt));
      const late = expiredEvent(session, 'expired', closedAt);
      // act / assess
      await expect(store.close(session, 'expired', closedAt, late)).rejects.toBeInstanceOf(ConditionFailedError);
      expect(await outbox.get(late.id)).toBeNull();
    });
  });

  describe('list', () => {
    it('lists newest first, slices pages and counts the exact total', async () => {
      // prepare
      const merchantId = newMerchantId();
      const sessions = Array.from({ length: 7 }, (_, i) => aSession(merchantId, i * SECOND));
      await createAll(sessions);
      const newestFirst = referencesOf([...sessions].reverse());
      // act
      const pages = await Promise.all([1, 2, 3, 4].map((page) => store.list(merchantId, 'test', { page, pageSize: 3, now: T0 })));
      // assess
      expect(pages.map((p) => referencesOf(p.items))).toEqual([newestFirst.slice(0, 3), newestFirst.slice(3, 6), newestFirst.slice(6), []]);
      expect(pages.map((p) => p.total)).toEqual([7, 7, 7, 7]);
      expect(pages[0]!.items[0]).toEqual(sessions[6]);
    });

    describe('status filter', () => {
      const merchantId = newMerchantId();
      const now = T0 + 10 * MINUTE;
      // Each session's name says its stored status and whether `now` is past its expiresAt.
      const cases: Record<string, { status: SessionStatus; expired: boolean; closedReason?: ClosedReason }> = {
        createdOpen: { status: 'created', expired: false },
        createdPast: { status: 'created', expired: true },
        failedOpen: { status: 'failed', expired: false },
        failedPast: { status: 'failed', expired: true },
        processingPast: { status: 'processing', expired: true },
        otpRequestedPast: { status: 'otp_requested', expired: true },
        otpConfirmedOpen: { status: 'otp_confirmed', expired: false },
        completedPast: { status: 'completed', expired: true },
        closedByMerchant: { status: 'expired', expired: false, closedReason: 'merchant_request' },
        closedByFailures: { status: 'expired', expired: true, closedReason: 'max_failures_reached' },
      };
      const sessions = new Map<string, Session>();

      beforeAll(async () => {
        Object.entries(cases).forEach(([name, c], i) => {
          const expiresAt = new Date(c.expired ? now - MINUTE : now + MINUTE).toISOString();
          sessions.set(name, aSession(merchantId, i * SECOND, { status: c.status, closedReason: c.closedReason ?? null, expiresAt }));
        });
        await createAll([...sessions.values()]);
      });

      it.each<[SessionStatus, string[]]>([
        ['created', ['createdOpen']],
        ['failed', ['failedOpen']],
        // Past expiresAt with no charge in flight reads expired, whatever the closedReason.
        ['expired', ['closedByFailures', 'closedByMerchant', 'failedPast', 'createdPast']],
        ['processing', ['processingPast']],
        ['otp_requested', ['otpRequestedPast']],
        ['otp_confirmed', ['otpConfirmedOpen']],
        ['completed', ['completedPast']],
      ])('filters on the status shown at `now`: %s gives %j, newest first', async (status, names) => {
        // act
        const result = await store.list(merchantId, 'test', { page: 1, pageSize: 100, status, now });
        // assess
        expect(referencesOf(result.items)).toEqual(names.map((n) => sessions.get(n)!.reference));
        expect(result.total).toBe(names.length);
      });

      it('shows every session as created when nothing has reached expiresAt yet', async () => {
        // Before any expiresAt, createdPast is still created.
        const result = await store.list(merchantId, 'test', { page: 1, pageSize: 100, status: 'created', now: T0 });
        expect(new Set(referencesOf(result.items))).toEqual(new Set([sessions.get('createdOpen')!.reference, sessions.get('createdPast')!.reference]));
      });

      it('counts the total over all matches and slices the filtered list into pages', async () => {
        // act
        const pages = await Promise.all([1, 2, 3].map((page) => store.list(merchantId, 'test', { page, pageSize: 3, status: 'expired', now })));
        // assess
        expect(pages.map((p) => p.total)).toEqual([4, 4, 4]);
        expect(pages.map((p) => p.items.length)).toEqual([3, 1, 0]);
        expect(referencesOf(pages[1]!.items)).toEqual([sessions.get('createdPast')!.reference]);
      });
    });

    it('returns the right items for page 50 of a merchant with 600 sessions', async () => {
      // prepare
      const merchantId = newMerchantId();
      const sessions = Array.from({ length: 600 }, (_, i) => aSession(merchantId, i * SECOND));
      await createAll(sessions, 50);
      const newestFirst = referencesOf([...sessions].reverse());
      // act
      const [page50, page6Of100, lastPage, beyond] = await Promise.all([
        store.list(merchantId, 'test', { page: 50, pageSize: 10, now: T0 }),
        store.list(merchantId, 'test', { page: 6, pageSize: 100, now: T0 }),
        store.list(merchantId, 'test', { page: 60, pageSize: 10, now: T0 }),
        store.list(merchantId, 'test', { page: 61, pageSize: 10, now: T0 }),
      ]);
      // assess
      expect(referencesOf(page50.items)).toEqual(newestFirst.slice(490, 500));
      expect(referencesOf(page6Of100.items)).toEqual(newestFirst.slice(500, 600));
      expect(referencesOf(lastPage.items)).toEqual(newestFirst.slice(590, 600));
      expect(beyond.items).toEqual([]);
      expect([page50, page6Of100, lastPage, beyond].map((p) => p.total)).toEqual([600, 600, 600, 600]);
      expect(page50.items[0]).toEqual(sessions[109]);
      // 600 writes to DynamoDB Local: a minute and more on a busy machine (seen past 30 s in CI under load).
    }, 180_000);

    it("never shows another merchant's sessions or the other mode's", async () => {
      // prepare
      const merchantId = newMerchantId();
      const mine = [aSession(merchantId, 0), aSession(merchantId, SECOND)];
      const others = [aSession(merchantId, 2 * SECOND, {}, 'live'), aSession(newMerchantId(), 3 * SECOND)];
      await createAll([...mine, ...others]);
      // act
      const [test, live] = await Promise.all(
        (['test', 'live'] as const).map((mode) => store.list(merchantId, mode, { page: 1, pageSize: 100, now: T0 })),
      );
      // assess
      expect(referencesOf(test!.items)).toEqual(referencesOf([mine[1]!, mine[0]!]));
      expect(test!.total).toBe(2);
      expect(referencesOf(live!.items)).toEqual([others[0]!.reference]);
      expect(live!.total).toBe(1);
    });
  });
});
