/**
 * Issue 9.3 (webhooks): a receiver that is down for longer than every retry, and a dispatcher that fails or dies
 * between reading the stream and queueing the delivery. Every event must end delivered or dead-lettered with its
 * delivery record, and a manual retry must still deliver it: nothing is lost.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookDelivery } from '../../shared/webhooks/delivery.ts';
import { RETRY_DELAYS_SECONDS } from '../../shared/webhooks/retry-schedule.ts';
import { checkoutCharge, openSession } from '../support/checkout.ts';
import { figureCounter, reportFigures } from '../support/figures.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';
import { SUITE_TIMEOUT_MS } from './suite-limits.ts';

const EVENTS_PER_TEST = Number(process.env.WEBHOOK_EVENTS ?? 12);

/** A receiver that records event ids; `down` closes its port, `up` opens the same port again. */
async function flakyReceiver() {
  const received: string[] = [];
  let server: Server | null = null;
  const listen = (port: number) =>
    new Promise<number>((resolve) => {
      server = createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          received.push((JSON.parse(body) as { id: string }).id);
          res.writeHead(200).end('{}');
        });
      });
      server.listen(port, '127.0.0.1', () => resolve((server!.address() as AddressInfo).port));
    });
  const port = await listen(0);
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    down: () =>
      new Promise<void>((r) => {
        const open = server;
        server = null;
        if (!open) return r();
        open.closeAllConnections();
        open.close(() => r());
      }),
    up: async () => {
      if (!server) await listen(port);
    },
  };
}

describe('webhook faults', { timeout: SUITE_TIMEOUT_MS }, () => {
  let sandbox: TestSandbox;
  let receiver: Awaited<ReturnType<typeof flakyReceiver>>;
  const figures = figureCounter('eventsSent', 'delivered', 'deadLettered', 'deliveredAfterManualRetry', 'lost', 'enqueueFaults', 'dispatcherCrashes');

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    receiver = await flakyReceiver();
  });
  afterAll(async () => {
    reportFigures('faults-webhooks', figures);
    await sandbox?.stop();
    await receiver?.down();
  });

  /** A merchant with one endpoint on the receiver and `count` events: expiries and charges. */
  async function merchantWithEvents(count: number) {
    const { merchant, keys } = await sandbox.newMerchant();
    const endpoint = await sandbox.request('POST', '/v1/webhooks/endpoints', { key: keys.secretTest, body: { url: receiver.url } });
    expect(endpoint.status).toBe(201);
    for (let i = 0; i < count; i++) {
      const session = await openSession(sandbox, keys.secretTest);
      if (i % 2 === 0) await sandbox.request('POST', `/v1/sessions/${session.reference}/expire`, { key: keys.secretTest });
      else await checkoutCharge(sandbox, session.reference);
    }
    return { merchant, keys };
  }

  /** Events of the merchant and the delivery of each to the one endpoint. */
  async function ledger(merchantId: string) {
    const events = (await sandbox.deps.outbox.listForMerchant(merchantId, 'test', 1000)).map((e) => e.envelope);
    const { items } = await sandbox.deps.webhookDeliveries.list(merchantId, 'test', { limit: 1000 });
    const byEvent = new Map<string, WebhookDelivery>(items.map((d) => [d.eventId, d]));
    return { events, byEvent };
  }

  it('dead-letters every event while the receiver is down past all retries, then a manual retry delivers each', async () => {
    // Down before the first event: the background ticker would otherwise deliver some at once.
    await receiver.down();
    const { merchant, keys } = await merchantWithEvents(EVENTS_PER_TEST);
    await sandbox.background.drain();
    for (const delay of RETRY_DELAYS_SECONDS) {
      sandbox.advance(delay);
      await sandbox.background.drain();
    }
    // One more receive moves each spent message to the dead-letter queue.
    sandbox.advance(1);
    await sandbox.background.drain();

    const { events, byEvent } = await ledger(merchant.id);
    figures.eventsSent += events.length;
    expect(events.length).toBeGreaterThanOrEqual(EVENTS_PER_TEST);
    const deadLettered = new Set(sandbox.background.queues.webhookDeliveries.deadLetters.map((m) => (JSON.parse(m.body) as { deliveryId: string }).deliveryId));
    for (const event of events) {
      const delivery = byEvent.get(event.id);
      if (!delivery) figures.lost++;
      expect(delivery, `no delivery for ${event.type} ${event.id}`).toBeDefined();
      expect(delivery).toMatchObject({ state: 'failed', attemptCount: RETRY_DELAYS_SECONDS.length + 1, lastStatusCode: null });
      expect(deadLettered.has(delivery!.id), `${delivery!.id} not in the dead-letter queue`).toBe(true);
      figures.deadLettered++;
    }

    await receiver.up();
    for (const delivery of byEvent.values()) {
      const retried = await sandbox.request('POST', `/v1/webhooks/deliveries/${delivery.id}/retry`, { key: keys.secretTest });
      expect(retried.status).toBe(202);
    }
    await sandbox.background.drain();
    for (const event of events) {
      expect(receiver.received, `${event.id} never arrived`).toContain(event.id);
      expect(await sandbox.deps.webhookDeliveries.get(byEvent.get(event.id)!.id)).toMatchObject({ state: 'succeeded' });
      figures.deliveredAfterManualRetry++;
    }
  });

  /** Runs the dispatcher with the delivery queue (and, for a crash, the clean-up) failing on the first sends. */
  async function withFailingEnqueue(failures: number, crash: boolean, work: () => Promise<void>) {
    const queue = sandbox.background.queues.webhookDeliveries;
    const store = sandbox.deps.webhookDeliveries;
    const send = queue.send.bind(queue);
    const deleteUnsent = store.deleteUnsent.bind(store);
    let left = failures;
    let failing = false;
    queue.send = async (body, options) => {
      if (left > 0) {
        left--;
        failing = true;
        figures.enqueueFaults++;
        if (crash) figures.dispatcherCrashes++;
        throw new Error('SQS unavailable (injected)');
      }
      return send(body, options);
    };
    // A crash is the process dying right after the failed send: its clean-up never runs.
    store.deleteUnsent = async (id) => {
      if (crash && failing) {
        failing = false;
        throw new Error('process died (injected)');
      }
      return deleteUnsent(id);
    };
    try {
      await work();
    } finally {
      queue.send = send;
      store.deleteUnsent = deleteUnsent;
    }
  }

  for (const crash of [false, true]) {
    it(`delivers every event at least once when the enqueue after the stream read ${crash ? 'crashes the dispatcher' : 'fails'}`, async () => {
      await receiver.up();
      let merchantId = '';
      await withFailingEnqueue(Math.ceil(EVENTS_PER_TEST / 2), crash, async () => {
        merchantId = (await merchantWithEvents(EVENTS_PER_TEST)).merchant.id;
        await sandbox.background.drain();
      });
      // Whatever was left behind is picked up within the first retry interval.
      sandbox.advance(RETRY_DELAYS_SECONDS[0]!);
      await sandbox.background.drain();

      const { events, byEvent } = await ledger(merchantId);
      figures.eventsSent += events.length;
      for (const event of events) {
        const arrived = receiver.received.includes(event.id);
        if (arrived) figures.delivered++;
        else figures.lost++;
        expect(arrived, `${event.type} ${event.id} never arrived (delivery: ${JSON.stringify(byEvent.get(event.id)?.state)})`).toBe(true);
        expect(byEvent.get(event.id)).toMatchObject({ state: 'succeeded' });
      }
    });
  }
});
