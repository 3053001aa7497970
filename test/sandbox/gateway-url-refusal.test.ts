import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
/** tsx compiling bin/sandbox.ts in a fresh process: seconds alone, far more on a loaded machine. */
const START_TIMEOUT_MS = 120_000;

describe('npm start with a gateway URL that would carry test traffic to production', () => {
  it('refuses to start, naming the variable, before DynamoDB Local or any server starts', async () => {
    const sandboxDir = mkdtempSync(join(tmpdir(), 'sandbox-refusal-'));
    const env = {
      ...process.env,
      SANDBOX_DIR: sandboxDir,
      PORT: '1',
      DYNAMODB_PORT: '1',
      GATEWAY_MERCANTIL_URL: 'https://apimbu.mercantilbanco.com/mercantil-banco/prod/v1',
    };
    const started = run(process.execPath, ['--import', 'tsx', 'bin/sandbox.ts'], { env, timeout: START_TIMEOUT_MS });

    const failure = await started.then(() => null, (error: { code: number; stderr: string }) => error);
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain('The sandbox does not start:');
    expect(failure?.stderr).toContain("GATEWAY_MERCANTIL_URL=https://apimbu.mercantilbanco.com/mercantil-banco/prod/v1 would carry the sandbox's test traffic");
    expect(readdirSync(sandboxDir)).toEqual([]);
  }, START_TIMEOUT_MS + 10_000);
});
