import { existsSync, mkdtempSync, statSync, symlinkSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adminSandboxEnvironment, isLoopbackEndpoint, writeRunningSandbox } from '../../infra/sandbox/environment.ts';

/** The admin CLI acts on the sandbox that runs, whatever ports `npm start` was given (docs/operations.md). */
describe('the admin CLI follows the running sandbox', () => {
  const sandboxDir = () => mkdtempSync(join(tmpdir(), 'sandbox-env-'));

  it("reads DynamoDB Local's endpoint and the table from what the sandbox wrote in its SANDBOX_DIR", () => {
    const dir = sandboxDir();
    writeRunningSandbox(dir, { url: 'http://localhost:4999', dynamoEndpoint: 'http://127.0.0.1:8999', tableName: 'svc-other' });
    expect(adminSandboxEnvironment({ SANDBOX_DIR: dir })).toMatchObject({ dynamoEndpoint: 'http://127.0.0.1:8999', tableName: 'svc-other', keyDir: join(dir, 'keys') });
  });

  it('lets a variable given to the command win over the file, and keeps the defaults without a running sandbox', () => {
    const dir = sandboxDir();
    writeRunningSandbox(dir, { url: 'http://localhost:4999', dynamoEndpoint: 'http://127.0.0.1:8999', tableName: 'svc-other' });
    expect(adminSandboxEnvironment({ SANDBOX_DIR: dir, DYNAMODB_PORT: '9100', TABLE_NAME: 'mine' })).toMatchObject({ dynamoEndpoint: 'http://127.0.0.1:9100', tableName: 'mine' });
    expect(adminSandboxEnvironment({ SANDBOX_DIR: sandboxDir() })).toMatchObject({ dynamoEndpoint: 'http://127.0.0.1:8642', tableName: 'svc-sandbox' });
  });

  it('ignores a file it cannot read as the sandbox wrote it', () => {
    const dir = sandboxDir();
    writeFileSync(join(dir, 'sandbox.json'), '{"dynamoEndpoint": 7');
    expect(adminSandboxEnvironment({ SANDBOX_DIR: dir })).toMatchObject({ dynamoEndpoint: 'http://127.0.0.1:8642', tableName: 'svc-sandbox' });
  });

  it('refuses a file whose DynamoDB endpoint is not on this machine, saying which file and how to go on (round 4, finding 6)', () => {
    const dir = sandboxDir();
    for (const dynamoEndpoint of ['http://192.0.2.7:8000', 'http://127.0.0.1.attacker.example:8000', 'http://localhost.attacker.example', 'file:///etc/passwd']) {
      writeFileSync(join(dir, 'sandbox.json'), JSON.stringify({ url: 'http://localhost:4999', dynamoEndpoint, tableName: 'svc-other' }));
      expect(() => adminSandboxEnvironment({ SANDBOX_DIR: dir })).toThrow(
        `${join(dir, 'sandbox.json')} names DynamoDB at ${dynamoEndpoint}, which is not this machine: a sandbox's DynamoDB Local is always on loopback, so the file is refused. Remove it, or give DYNAMODB_ENDPOINT to the command.`,
      );
    }
    // The operator's own variable is their word, as before: the file is not followed then.
    expect(adminSandboxEnvironment({ SANDBOX_DIR: dir, DYNAMODB_ENDPOINT: 'http://127.0.0.1:9100' })).toMatchObject({ dynamoEndpoint: 'http://127.0.0.1:9100', endpointSource: 'environment' });
  });

  it('takes loopback endpoints in every spelling a sandbox writes', () => {
    expect(['http://127.0.0.1:8642', 'http://localhost:8642', 'http://[::1]:8642', 'http://127.8.9.10:1'].map(isLoopbackEndpoint)).toEqual([true, true, true, true]);
    expect(['http://192.0.2.7:8642', 'http://127.0.0.1.nip.io:8642', 'http://[::2]:1', 'not a url', 'ftp://127.0.0.1/'].map(isLoopbackEndpoint)).toEqual([false, false, false, false, false]);
  });

  it("writes the file for its owner only (0600), also over a world-readable one a crashed run left, and never through a planted link", () => {
    const dir = sandboxDir();
    writeFileSync(join(dir, 'sandbox.json'), '{}', { mode: 0o644 });
    const elsewhere = join(sandboxDir(), 'target.json');
    writeFileSync(elsewhere, 'untouched');
    writeRunningSandbox(dir, { url: 'http://localhost:4999', dynamoEndpoint: 'http://127.0.0.1:8999', tableName: 'svc-other' });
    expect(statSync(join(dir, 'sandbox.json')).mode & 0o777).toBe(0o600);

    const linked = sandboxDir();
    symlinkSync(elsewhere, join(linked, 'sandbox.json'));
    writeRunningSandbox(linked, { url: 'http://localhost:4999', dynamoEndpoint: 'http://127.0.0.1:8999', tableName: 'svc-other' });
    expect(readFileSync(elsewhere, 'utf8')).toBe('untouched');
    expect(statSync(join(linked, 'sandbox.json')).mode & 0o777).toBe(0o600);
  });

  it("removes the file at shutdown, but not one another sandbox wrote since in the same folder", () => {
    const dir = sandboxDir();
    const first = writeRunningSandbox(dir, { url: 'http://localhost:4999', dynamoEndpoint: 'http://127.0.0.1:8999', tableName: 'svc-other' });
    first.remove();
    expect(existsSync(join(dir, 'sandbox.json'))).toBe(false);

    const older = writeRunningSandbox(dir, { url: 'http://localhost:4999', dynamoEndpoint: 'http://127.0.0.1:8999', tableName: 'svc-other' });
    writeRunningSandbox(dir, { url: 'http://localhost:5000', dynamoEndpoint: 'http://127.0.0.1:9000', tableName: 'svc-other' });
    older.remove();
    expect(adminSandboxEnvironment({ SANDBOX_DIR: dir })).toMatchObject({ dynamoEndpoint: 'http://127.0.0.1:9000', endpointSource: 'sandbox.json' });
  });
});
