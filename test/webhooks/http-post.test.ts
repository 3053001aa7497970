import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpPost, HttpPostError } from '../../shared/webhooks/http-post.ts';

describe('createHttpPost', () => {
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/redirect') return res.writeHead(302, { Location: '/elsewhere' }).end();
      if (req.url === '/silent') return; // never answers
      res.writeHead(200).end('x'.repeat(1000));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const failure = async (promise: Promise<unknown>) => {
    const error = await promise.then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(HttpPostError);
    return (error as HttpPostError).reason;
  };

  it('refuses loopback in AWS, by literal address and by a name that resolves there', async () => {
    const aws = createHttpPost({ allowLoopback: false });
    expect(await failure(aws(`https://127.0.0.1:${port}/`, { headers: {}, body: '{}' }))).toBe('forbidden_address');
    expect(await failure(aws(`https://localhost:${port}/`, { headers: {}, body: '{}' }))).toBe('forbidden_address');
    expect(await failure(aws('https://169.254.169.254/latest/meta-data', { headers: {}, body: '{}' }))).toBe('forbidden_address');
    expect(await failure(aws(`http://127.0.0.1:${port}/`, { headers: {}, body: '{}' }))).toBe('forbidden_address');
  });

  it('in the sandbox reaches loopback, keeps a short excerpt, and does not follow redirects', async () => {
    const local = createHttpPost({ allowLoopback: true });
    const ok = await local(`http://localhost:${port}/`, { headers: {}, body: '{}' });
    expect(ok).toMatchObject({ statusCode: 200, excerpt: 'x'.repeat(200) });
    expect(await local(`http://127.0.0.1:${port}/redirect`, { headers: {}, body: '{}' })).toMatchObject({ statusCode: 302 });
  });

  it('gives up after the timeout', async () => {
    const local = createHttpPost({ allowLoopback: true, timeoutMs: 150 });
    expect(await failure(local(`http://127.0.0.1:${port}/silent`, { headers: {}, body: '{}' }))).toBe('timeout');
  });
});
