import { afterAll, beforeAll } from 'vitest';
import { startTestSandbox, type TestSandbox } from './sandbox.ts';
import { startReceiver, type TestReceiver } from './webhook-receiver.ts';

export interface SandboxWithReceiver {
  /** Reassignable: a restart test replaces it with the restarted sandbox, which is then the one stopped. */
  sandbox: TestSandbox;
  receiver: TestReceiver;
}

/**
 * A sandbox (with these options) and a webhook receiver for the tests of one describe block: started before them,
 * stopped after.
 *
 * @example
 * const env = sandboxWithReceiver();
 * it('delivers', async () => { await env.sandbox.request(...); expect(env.receiver.received).toHaveLength(1); });
 */
export function sandboxWithReceiver(options?: Parameters<typeof startTestSandbox>[0]): SandboxWithReceiver {
  const env = {} as SandboxWithReceiver;
  beforeAll(async () => {
    env.sandbox = await startTestSandbox(options);
    env.receiver = await startReceiver();
  });
  afterAll(async () => {
    await env.sandbox?.stop();
    await env.receiver?.close();
  });
  return env;
}
