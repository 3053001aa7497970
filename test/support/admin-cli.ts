import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testConnection } from './dynamo.ts';

const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Each CLI run starts npm and tsx: ~10 s on a busy machine; a test of several runs needs this much room. */
export const CLI_TEST_TIMEOUT_MS = 240_000;

/**
 * The real admin CLI, as the platform team runs it: a child process through npm (~1-2 s each: use sparingly), on the
 * run's DynamoDB Local, with its own sandbox folder (local keys) unless given one.
 */
export function runAdminCli(args: string[], { sandboxDir = mkdtempSync(join(tmpdir(), 'svc-admin-')) }: { sandboxDir?: string } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const { endpoint, tableName } = testConnection();
  return new Promise((resolve) => {
    execFile('npm', ['run', '--silent', 'admin', '--', ...args], { cwd: PROJECT_ROOT, env: { ...process.env, DYNAMODB_ENDPOINT: endpoint, TABLE_NAME: tableName, SANDBOX_DIR: sandboxDir } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}
