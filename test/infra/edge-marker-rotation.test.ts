/**
 * Issue 33, finding 5: the edge marker's rotation function (infra/edge-marker-rotation/rotate.py) against moto's
 * Secrets Manager, WAF and CloudFront, step by step as Secrets Manager calls it. The function is Python (boto3 in
 * Lambda's runtime), so its cases are Python too (edge-marker-rotation/test_rotate.py); this file runs them.
 */
import { execFile, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CASES = fileURLToPath(new URL('./edge-marker-rotation/test_rotate.py', import.meta.url));
/** Python's start and moto's import take seconds alone; four rotations on a busy machine, far more. */
const RUN_TIMEOUT_MS = 180_000;

describe('the edge marker rotation', () => {
  it('gives the WAF and both distributions a new value in step, keeps the one before until the next rotation, and stops on a distribution out of step', { timeout: RUN_TIMEOUT_MS }, async () => {
    // The same moto as npm run test:aws needs (docs/aws-harness.md); nothing is skipped without it.
    const probe = spawnSync('python3', ['-c', 'import boto3, moto'], { encoding: 'utf8' });
    if (probe.status !== 0) throw new Error(`These cases need python3 with moto 5.2.1 and boto3: pip install 'moto[server]==5.2.1'. ${probe.stderr ?? ''}`);

    const { code, output } = await new Promise<{ code: number; output: string }>((resolve) =>
      execFile('python3', [CASES, '-v'], { timeout: RUN_TIMEOUT_MS - 10_000, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } }, (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr })),
    );

    expect(output).toMatch(/Ran 4 tests/);
    expect({ code, output }).toMatchObject({ code: 0 });
  });
});
