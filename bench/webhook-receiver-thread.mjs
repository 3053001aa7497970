// The merchant's server of bench/webhook-receiver.ts, on its own thread. Plain JavaScript: a worker thread does not
// get the TypeScript loader the benchmark runs under.
import { createServer } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const received = new Int32Array(workerData.received);
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const arrivedAt = Date.now();
    // Counted before the answer: once the sender has its 200, the count includes it.
    Atomics.add(received, 0, 1);
    res.writeHead(200).end();
    parentPort.postMessage({ body: Buffer.concat(chunks).toString('utf8'), arrivedAt });
  });
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
parentPort.on('message', (message) => {
  if (message === 'stop') server.close(() => parentPort.close());
});
