import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConnection } from '../support/dynamo.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

const run = promisify(execFile);

/** Every ```sh block of the README and docs/ that calls the API through $SVC. */
function documentedExamples(): { file: string; index: number; script: string }[] {
  const files = ['README.md', ...readdirSync('docs').filter((f) => f.endsWith('.md')).map((f) => join('docs', f))];
  return files.flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)]
      .map((m, index) => ({ file, index, script: m[1]! }))
      .filter((block) => block.script.includes('curl') && block.script.includes('$SVC')),
  );
}

// curl as the reader runs it, plus a record of each answer's HTTP status for the test to check.
const CURL_RECORDER = `
curl() {
  local out
  out=$(command curl -sS -w '\\n%{http_code}' "$@") || return 1
  printf '%s\\n' "\${out%$'\\n'*}"
  printf '%s\\n' "\${out##*$'\\n'}" >> "$STATUS_LOG"
}
`;

describe('documented curl examples', () => {
  let sandbox: TestSandbox;
  let secretKey: string;
  /** What npm start prints and the admin CLI reads: the guide's walkthroughs use the seeded merchant's id and live key too. */
  let environment: Record<string, string>;
  beforeAll(async () => {
    // The admin CLI beside the sandbox: the same table and, under SANDBOX_DIR, the same local keys. A merchant the
    // CLI changes is read again at once (no 30 s cache), as after the wait the guide asks for.
    const sandboxDir = mkdtempSync(join(tmpdir(), 'curl-sandbox-'));
    sandbox = await startTestSandbox({ keyDir: join(sandboxDir, 'keys'), keyCacheTtlMs: 0 });
    secretKey = (await sandbox.newMerchant()).keys.secretTest;
    // A merchant of its own for the walkthroughs that move the seeded merchant to another gateway.
    const seeded = await sandbox.newMerchant();
    const { endpoint, tableName } = testConnection();
    environment = { MER: seeded.merchant.id, SKL: seeded.keys.secretLive, DYNAMODB_ENDPOINT: endpoint, TABLE_NAME: tableName, SANDBOX_DIR: sandboxDir };
  });
  afterAll(() => sandbox.stop());

  const examples = documentedExamples();

  it('finds the examples it is meant to run', () => {
    expect(examples.length).toBeGreaterThanOrEqual(3);
  });

  it.each(examples.map((e) => [`${e.file} #${e.index}`, e] as const))('%s answers as documented', async (_name, example) => {
    const statusLog = join(mkdtempSync(join(tmpdir(), 'curl-')), 'status');
    // The reader sets SVC and SK from what npm start printed; the test sets them to its own sandbox.
    const body = example.script.replace(/^export (SVC|SK)=.*$/gm, '');
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', `${CURL_RECORDER}\n${body}`], {
      env: { ...process.env, ...environment, SVC: sandbox.url, SK: secretKey, STATUS_LOG: statusLog },
    });
    const statuses = readFileSync(statusLog, 'utf8').trim().split('\n').map(Number);
    const expected = /# expect: (\d{3})/.exec(example.script)?.[1];
    expect(statuses.length).toBeGreaterThan(0);
    if (expected) expect(statuses.at(-1)).toBe(Number(expected));
    else expect(statuses.filter((s) => s < 200 || s > 299), stdout).toEqual([]);
    expect(stdout).not.toMatch(/\bat .+\.ts:\d+/); // never a stack trace
  }, 240_000);
});
