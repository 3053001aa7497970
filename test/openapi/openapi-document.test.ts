import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRouteSchemas } from '../../shared/openapi/load-route-schemas.ts';
import { isPublicRoute } from '../../shared/openapi/operation-descriptions.ts';
import { routeIds, routes } from '../../shared/routes.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

const run = promisify(execFile);

describe('the OpenAPI document', () => {
  let sandbox: TestSandbox;
  let document: any;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const res = await sandbox.request('GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    document = res.body;
  });
  afterAll(() => sandbox.stop());

  it('is served without a key as OpenAPI 3.1', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.components.securitySchemes.secretKey).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
  });

  it('describes every public route of the manifest, with the handler declaring its success answers', async () => {
    const schemas = await loadRouteSchemas();
    for (const id of routeIds.filter(isPublicRoute)) {
      expect(schemas[id].responses, `${id} declares responses in defineApiHandler`).toBeDefined();
      const operation = document.paths[routes[id].path]?.[routes[id].method.toLowerCase()];
      expect(operation?.operationId, id).toBe(id);
      for (const status of Object.keys(schemas[id].responses!.success)) expect(operation.responses[status], `${id} ${status}`).toBeDefined();
    }
  });

  it('documents the errors the middleware chain adds, in the one error shape', () => {
    const create = document.paths['/v1/sessions'].post;
    expect(Object.keys(create.responses)).toEqual(['201', '400', '401', '403', '404', '409', '413', '415', '422', '429', '500']);
    expect(create.responses['429'].headers['Retry-After']).toBeDefined();
    expect(create.responses['400'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    const optionalKey = create.parameters.find((p: { name: string }) => p.name === 'Idempotency-Key');
    expect(optionalKey).toEqual(expect.objectContaining({ in: 'header' }));
    expect(optionalKey.required).not.toBe(true);
    const charge = document.paths['/v1/checkout/charge'].post;
    expect(charge.security).toEqual([{}, { publishableKey: [] }]);
    expect(charge.parameters).toContainEqual(expect.objectContaining({ in: 'header', name: 'Idempotency-Key', required: true }));
    expect(charge.responses['410'].description).toContain('session_expired');
    expect(document.paths['/v1/sessions'].get.responses['403']).toBeUndefined(); // read-only keys may read
  });

  it('takes request bodies and parameters from the validating schemas', () => {
    const body = document.components.schemas.CreateSessionRequest;
    expect(body.required).toEqual(['amountMinor', 'currency']);
    expect(body.properties.expiresInMinutes).toEqual(expect.objectContaining({ minimum: 2, maximum: 60 }));
    expect(body.additionalProperties).toBe(false);
    const list = document.paths['/v1/sessions'].get.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`);
    expect(list).toEqual(['query:page', 'query:pageSize', 'query:status']);
  });

  it('is clean under Redocly CLI lint (recommended rules), offline', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'openapi-')), 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    const { stdout, stderr } = await run(process.execPath, ['node_modules/@redocly/cli/bin/cli.js', 'lint', file, '--config', 'redocly.yaml', '--format', 'json'], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    });
    const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: unknown[] };
    expect(report.problems, stderr).toEqual([]);
    expect(report.totals).toEqual(expect.objectContaining({ errors: 0, warnings: 0 }));
  }, 60_000);
});
