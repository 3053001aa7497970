import { createServer } from 'node:net';

/**
 * A TCP port free on 127.0.0.1 at the time of the call: the OS picks one for a throwaway listener, which is closed
 * before returning. Lets DynamoDB Local instances (tests, bench) run beside the developer's sandbox without clashing.
 *
 * @example
 * const dynamo = await startDynamoLocal({ port: await freePort() });
 */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
