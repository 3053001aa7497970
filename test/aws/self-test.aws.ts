import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { routes } from '../../shared/routes.ts';
import { routeWiringProblems } from './harness/api-gateway.ts';
import { deployStack, type DeployedStack } from './harness/deployed-stack.ts';
import { deniedCalls } from './harness/iam-check.ts';
import { card, DOCUMENT, newMerchant } from './harness/scenarios.ts';
import { resourcesOfType, type CfnTemplate } from './harness/template.ts';

/** The logical id of the resource CDK made at this construct path (e.g. `Api/createSession/Function`). */
const byPath = (template: CfnTemplate, suffix: string) => {
  const found = Object.entries(template.Resources).find(([, r]) => String(r.Metadata?.['aws:cdk:path'] ?? '').endsWith(`/${suffix}`));
  if (!found) throw new Error(`No resource at ${suffix}`);
  return found;
};

/** The harness catches a template broken in each way the issue names: each case deploys a mutated copy. */
describe('the harness detects a broken template', () => {
  let stack: DeployedStack | undefined;
  const deploy = async (mutate: (t: CfnTemplate) => void) => {
    stack = await deployStack({ assemblyDir: inject('assemblyDir'), dynamoEndpoint: inject('awsDynamoEndpoint') }, 'lockfile', mutate);
    return stack;
  };
  afterEach(async () => {
    await stack?.stop();
    stack = undefined;
  });

  it('a method integrating another route\'s function', async () => {
    const s = await deploy((t) => {
      const [, listSessions] = byPath(t, 'Api/listSessions/Function/Resource');
      const [, method] = resourcesOfType(t, 'AWS::ApiGateway::Method').find(([, m]) => JSON.stringify(m.Properties.Integration?.Uri ?? '').includes('ApigetSessionFunction'))!;
      const id = Object.keys(t.Resources).find((k) => t.Resources[k] === listSessions)!;
      method.Properties.Integration.Uri = JSON.parse(JSON.stringify(method.Properties.Integration.Uri).replace(/ApigetSessionFunction[0-9A-F]+/, id));
    });
    expect(routeWiringProblems(s.cloud.template, s.api.routes, routes)).toContainEqual(expect.stringContaining('getSession: GET /v1/sessions/{reference} invokes'));
  });

  it('a function missing a variable the template should give it', async () => {
    const s = await deploy((t) => {
      delete byPath(t, 'Api/createSession/Function/Resource')[1].Properties!.Environment.Variables.TABLE_NAME;
    });
    const { keys } = await newMerchant(s);
    const created = await s.api.request('POST', '/v1/sessions', { key: keys.secretTest, body: { amountMinor: 100, currency: 'VES' } });
    expect(created.status).toBeGreaterThanOrEqual(500);
  });

  it('a permission the function needs taken out of its role', async () => {
    const s = await deploy((t) => {
      const [, policy] = byPath(t, 'Api/createCheckoutCharge/Role/DefaultPolicy/Resource');
      for (const statement of policy.Properties!.PolicyDocument.Statement) {
        if (Array.isArray(statement.Action)) statement.Action = statement.Action.filter((a: string) => a !== 'kms:GenerateMac');
        else if (statement.Action === 'kms:GenerateMac') statement.Action = 'kms:DescribeKey';
      }
    });
    const { keys } = await newMerchant(s);
    const session = await s.api.request('POST', '/v1/sessions', { key: keys.secretTest, body: { amountMinor: 100, currency: 'VES', customerRef: 'cus_self' } });
    await s.api.request('POST', '/v1/checkout/charge', { body: { sessionReference: session.body.reference, card: card(), document: DOCUMENT }, headers: { 'Idempotency-Key': randomUUID() } });
    expect(deniedCalls(s.cloud.template, s.cloud.ids, s.cloud.recorder.calls)).toEqual([expect.stringMatching(/createCheckoutCharge.*kms:GenerateMac/)]);
  });

  it('a stream filter that lets no session through', async () => {
    const s = await deploy((t) => {
      const [, mapping] = resourcesOfType(t, 'AWS::Lambda::EventSourceMapping').find(([, m]) => JSON.stringify(m.Properties.FilterCriteria ?? '').includes('SESSION#'))!;
      mapping.Properties.FilterCriteria.Filters[0].Pattern = mapping.Properties.FilterCriteria.Filters[0].Pattern.replace('SESSION#', 'SESSIONS#');
    });
    const { keys } = await newMerchant(s);
    const created = await s.api.request('POST', '/v1/sessions', { key: keys.secretTest, body: { amountMinor: 100, currency: 'VES' } });
    expect(created.status).toBe(201);
    // Expiring it writes session.expired: once the dispatcher got that later record, the stream is read past the
    // session's insert and change, which the planner, filtered wrong, never got.
    await s.api.request('POST', `/v1/sessions/${created.body.reference}/expire`, { key: keys.secretTest });
    await expect.poll(() => s.events.invocations.some((i) => i.functionLogicalId.includes('dispatchWebhooks')), { timeout: 60_000 }).toBe(true);
    expect(s.events.invocations.filter((i) => i.functionLogicalId.includes('planSessionExpiry'))).toEqual([]);
  });
});
