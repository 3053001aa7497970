import { Worker } from 'node:worker_threads';

export interface Delivery {
  body: string;
  /** Real time (epoch ms) the whole request had arrived. */
  arrivedAt: number;
}

export interface WebhookReceiver {
  url: string;
  /** Deliveries answered so far: counted before the 200 goes out, so a finished send is always in it. */
  received(): number;
  onDelivery(listener: (delivery: Delivery) => void): void;
  stop(): Promise<void>;
}

/**
 * A merchant's webhook endpoint on 127.0.0.1 that answers every delivery with 200 at once, on its own thread: a
 * merchant's server never shares the service's event loop. On the sandbox's loop, busy with the load mix, the
 * receiver took in one request per turn of the loop, so deliveries sent together arrived one after another, about
 * 30 ms apart (docs/benchmarks.md, "Webhook lateness").
 */
export async function startWebhookReceiver(path: string): Promise<WebhookReceiver> {
  const received = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(new URL('./webhook-receiver-thread.mjs', import.meta.url), { workerData: { received: received.buffer } });
  const listeners: ((delivery: Delivery) => void)[] = [];
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (message: { port: number }) => resolve(message.port));
  });
  worker.on('message', (message: Delivery) => listeners.forEach((listener) => listener(message)));
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received: () => Atomics.load(received, 0),
    onDelivery: (listener) => listeners.push(listener),
    stop: async () => {
      worker.postMessage('stop');
      await new Promise((resolve) => worker.once('exit', resolve));
    },
  };
}
