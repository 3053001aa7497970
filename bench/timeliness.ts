import { randomUUID } from 'node:crypto';
import type { BenchEnvironment, BenchMerchant } from './bench-environment.ts';
import { percentiles } from './latency-stats.ts';
import { APPROVING_PAYMENT } from './route-scenarios.ts';
import { startWebhookReceiver } from './webhook-receiver.ts';

const EVENTS = ['session.expired', 'charge.approved'] as const;
type TimedEvent = (typeof EVENTS)[number];
/** The shortest session the API allows: its expiry is crossed by moving the sandbox clock. */
export const SHORT_SESSION_MINUTES = 2;
const WAIT_FOR_DELIVERIES_MS = 60_000;
const CHARGE_CONCURRENCY = 4;

export interface LatenessStats {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  received: number;
  /** Expected but not received within the wait. */
  missing: number;
  /** Where the time went, per stage: its p50 and p99 in ms. */
  stages?: Record<string, { p50Ms: number; p99Ms: number }>;
}

export type TimelinessRound = Record<TimedEvent, LatenessStats>;

export interface Receipt {
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
  /** Sandbox clock when the POST arrived. */
  receivedAt: number;
}

/**
 * A merchant whose one endpoint points at a receiver on 127.0.0.1, and rounds that time how late its
 * session.expired and charge.approved webhooks arrive, on the sandbox clock:
 * - charge.approved: from the event's createdAt (when the approval was committed) to its arrival;
 * - session.expired: sessions of SHORT_SESSION_MINUTES are crossed by moving the clock; from that moment (the
 *   latest the expiry was due) to the arrival; split into `closed` (the jump to the event's createdAt: schedule,
 *   hand-over, queue, close) and `delivered` (createdAt to the arrival: stream, dispatch, queue, send).
 */
export async function startTimeliness(env: BenchEnvironment): Promise<{ round(samples: number): Promise<TimelinessRound>; stop(): Promise<void> }> {
  const receipts: Receipt[] = [];
  const arrived: (() => void)[] = [];
  const receiver = await startWebhookReceiver('/hook');
  receiver.onDelivery(({ body, arrivedAt }) => {
    // On the sandbox clock: the real arrival moved by the clock's offset, which only a round's jump changes, and the
    // round takes in its approvals before jumping.
    const receivedAt = arrivedAt + (env.sandbox.clock.now() - Date.now());
    receipts.push({ ...(JSON.parse(body) as Omit<Receipt, 'receivedAt'>), receivedAt });
    arrived.splice(0).forEach((wake) => wake());
  });

  const merchant: BenchMerchant = await env.newMerchant();
  const endpoint = await env.send({
    method: 'POST',
    path: '/v1/webhooks/endpoints',
    key: merchant.key,
    body: { url: receiver.url, enabledEvents: [...EVENTS], description: 'bench timeliness receiver' },
  });
  if (endpoint.status !== 201) throw new Error(`Registering the receiver answered ${endpoint.status}: ${JSON.stringify(endpoint.body)}`);

  const waitFor = async (done: () => boolean) => {
    const deadline = Date.now() + WAIT_FOR_DELIVERIES_MS;
    while (!done() && Date.now() < deadline) await new Promise<void>((r) => (arrived.push(r), setTimeout(r, 500)));
  };

  return {
    async round(samples) {
      const toCharge = await env.createSessions(merchant, samples);
      const toExpire = new Set(await env.createSessions(merchant, samples, { amountMinor: 1050, currency: 'VES', expiresInMinutes: SHORT_SESSION_MINUTES }));
      const charged = new Set(toCharge);

      const run = randomUUID();
      let next = 0;
      const charge = async () => {
        while (next < toCharge.length) {
          const sessionReference = toCharge[next++]!;
          const res = await env.send({ method: 'POST', path: '/v1/checkout/charge', body: { sessionReference, ...APPROVING_PAYMENT }, headers: { 'idempotency-key': `bench-${run}-${sessionReference}` } });
          if (res.status !== 200) throw new Error(`A timeliness charge answered ${res.status}: ${JSON.stringify(res.body)}`);
        }
      };
      const ofRound = () => ({
        approved: receipts.filter((r) => r.type === 'charge.approved' && charged.has(r.data.sessionReference as string)),
        expired: receipts.filter((r) => r.type === 'session.expired' && toExpire.has(r.data.sessionReference as string)),
      });
      await Promise.all(Array.from({ length: CHARGE_CONCURRENCY }, charge));
      // The approvals arrive before the clock moves, or their lateness would include the jump.
      await waitFor(() => ofRound().approved.length >= samples);
      env.sandbox.clock.advance(SHORT_SESSION_MINUTES * 60_000 + 1000);
      const dueAt = env.sandbox.clock.now();
      await waitFor(() => ofRound().expired.length >= samples);
      const { approved, expired } = ofRound();
      const stats = (lateness: number[]): LatenessStats => {
        const s = percentiles(lateness);
        return { p50Ms: s.p50, p99Ms: s.p99, maxMs: s.max, received: lateness.length, missing: samples - lateness.length };
      };
      const stage = (lateness: number[]) => {
        const s = percentiles(lateness);
        return { p50Ms: s.p50, p99Ms: s.p99 };
      };
      return {
        'charge.approved': stats(approved.map((r) => r.receivedAt - Date.parse(r.createdAt))),
        'session.expired': {
          ...stats(expired.map((r) => r.receivedAt - dueAt)),
          stages: {
            closed: stage(expired.map((r) => Date.parse(r.createdAt) - dueAt)),
            delivered: stage(expired.map((r) => r.receivedAt - Date.parse(r.createdAt))),
          },
        },
      };
    },
    stop: () => receiver.stop(),
  };
}
