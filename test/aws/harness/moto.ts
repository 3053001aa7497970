import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { delimiter } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../../infra/sandbox/free-port.ts';
import { ACCOUNT } from './template.ts';

/** Python's site customisation for moto_server: the stand-in corrections of docs/aws-harness.md. */
const MOTO_SITE = fileURLToPath(new URL('./moto-site/', import.meta.url));

export interface MotoServer {
  endpoint: string;
  stop(): Promise<void>;
}

/** moto's server stands in for SQS, KMS and EventBridge Scheduler; without it the harness cannot run at all. */
export function assertMotoAvailable(): void {
  const probe = spawnSync('moto_server', ['--help'], { stdio: 'ignore' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      "npm run test:aws needs moto's server (moto 5.2.1) for SQS, KMS and Scheduler, and `moto_server` is not on PATH. Install it with `pip install 'moto[server]==5.2.1'` (or `pipx install 'moto[server]==5.2.1'`), then run again.",
    );
  }
}

/** Starts moto_server on a free loopback port as the template's account, and waits until it answers. */
export async function startMoto(): Promise<MotoServer> {
  assertMotoAvailable();
  const port = await freePort();
  const child: ChildProcess = spawn('moto_server', ['-H', '127.0.0.1', '-p', String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      MOTO_ACCOUNT_ID: ACCOUNT,
      // Cognito: TOTP codes checked (moto's one fixed secret), and sign-in by alias (moto-site/sitecustomize.py).
      MOTO_COGNITO_IDP_USER_POOL_ENABLE_TOTP: 'true',
      PYTHONPATH: [MOTO_SITE, process.env.PYTHONPATH].filter(Boolean).join(delimiter),
    },
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  child.stderr?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  const endpoint = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`moto_server exited (code ${child.exitCode}):\n${output}`);
    const up = await fetch(`${endpoint}/moto-api/`).then((r) => r.ok, () => false);
    if (up) break;
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(`moto_server did not answer on port ${port} within 60 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    endpoint,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}
