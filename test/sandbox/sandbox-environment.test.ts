import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adminSandboxEnvironment, writeRunningSandbox } from '../../infra/sandbox/environment.ts';

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
});
