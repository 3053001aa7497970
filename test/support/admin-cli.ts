import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testConnection } from './dynamo.ts';

const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Each CLI run starts Node.js with tsx: seconds on a busy machine; a test of several runs needs this much room. */
export const CLI_TEST_TIMEOUT_MS = 240_000;

/** `npm run admin`'s own command, without npm and tsx's launcher process in front: one Node.js process per run. */
const DIRECT = [process.execPath, ['--import', 'tsx', 'bin/admin.ts']] as const;
/** As the platform team types it: npm, the package script, then tsx's launcher. */
const VIA_NPM = ['npm', ['run', '--silent', 'admin', '--']] as const;

/**
 * The real admin CLI in a child process, on the run's DynamoDB Local, with its own sandbox folder (local keys) unless
 * given one. Started directly (the package script is `tsx bin/admin.ts`), or `viaNpm` as typed, which costs two more
 * Node.js processes per run: one test goes that way, the rest directly.
 */
export function runAdminCli(
  args: string[],
  { sandboxDir = mkdtempSync(join(tmpdir(), 'svc-admin-')), viaNpm = false, followSandboxFile = false, env = {} }: { sandboxDir?: string; viaNpm?: boolean; followSandboxFile?: boolean; env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { endpoint, tableName } = testConnection();
  const [command, prefix] = viaNpm ? VIA_NPM : DIRECT;
  // followSandboxFile: no database named to the command, so it takes <sandboxDir>/sandbox.json's, as an operator's run does.
  const { DYNAMODB_ENDPOINT: _endpoint, DYNAMODB_PORT: _port, TABLE_NAME: _table, ...inherited } = process.env;
  const database = followSandboxFile ? {} : { DYNAMODB_ENDPOINT: endpoint, TABLE_NAME: tableName };
  return new Promise((resolve) => {
    execFile(command, [...prefix, ...args], { cwd: PROJECT_ROOT, env: { ...inherited, ...database, SANDBOX_DIR: sandboxDir, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}
