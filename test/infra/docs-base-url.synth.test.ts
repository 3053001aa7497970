import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { readStageConfig } from '../../infra/stage-config.ts';
import { addPaymentsStack } from '../../infra/stack.ts';
import { DASHBOARD_DOMAIN, withDashboardDomain } from './dashboard-domain.ts';
import { devStack } from './dev-stack.ts';
import { stageContext, SYNTH_TIMEOUT_MS } from './stage-context.ts';

const PUBLISHED_DOCS = 'https://docs.example.com/svc/errors';

/** Where each error's docUrl points, in the functions' answers and in API Gateway's own. */
describe('docsBaseUrl', () => {
  it('is read from the context as an https URL, and is absent unless given', () => {
    expect(readStageConfig(new App({ context: { docsBaseUrl: PUBLISHED_DOCS } }).node).docsBaseUrl).toBe(PUBLISHED_DOCS);
    expect(readStageConfig(new App({ context: {} }).node).docsBaseUrl).toBeUndefined();
    expect(() => readStageConfig(new App({ context: { docsBaseUrl: 'http://docs.example.com/errors' } }).node)).toThrow(/docsBaseUrl must be an https/);
  });

  const functionsAndResponses = (template: Template) => {
    const functions = Object.values(template.findResources('AWS::Lambda::Function')).filter((f) => f.Properties.Environment?.Variables?.CHECKOUT_BASE_URL !== undefined);
    expect(functions.length).toBeGreaterThan(20);
    const responses = Object.values(template.findResources('AWS::ApiGateway::GatewayResponse'));
    expect(responses.length).toBeGreaterThan(10);
    return {
      functionBases: functions.map((f) => withDashboardDomain(f.Properties.Environment.Variables.DOCS_BASE_URL)),
      bodies: responses.map((r) => JSON.parse(withDashboardDomain(r.Properties.ResponseTemplates['application/json'])) as { code: string; docUrl: string; requestId: string }),
    };
  };

  it('defaults to the docs deployed with the dashboard site: every function and gateway response, and the docs are in its bucket', { timeout: SYNTH_TIMEOUT_MS }, () => {
    const template = Template.fromStack(devStack());
    const { functionBases, bodies } = functionsAndResponses(template);
    for (const base of functionBases) expect(base).toBe(`https://${DASHBOARD_DOMAIN}/docs/errors`);
    for (const body of bodies) expect(body.docUrl).toBe(`https://${DASHBOARD_DOMAIN}/docs/errors#error-${body.code}`);
    // The rendered docs go to the dashboard's bucket under docs/, and CloudFront serves /docs/<page> from <page>.html.
    const deployments = Object.values(template.findResources('Custom::CDKBucketDeployment')).filter((d) => d.Properties.DestinationBucketKeyPrefix === 'docs/');
    expect(deployments).toHaveLength(1);
    expect(JSON.stringify(deployments[0]!.Properties.DestinationBucketName)).toMatch(/DashboardSiteBucket/);
    const rewrites = Object.values(template.findResources('AWS::CloudFront::Function')).map((f) => String(f.Properties.FunctionCode));
    expect(rewrites.some((code) => code.includes("'/docs/index.html'") && code.includes(".html'"))).toBe(true);
    const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(withDashboardDomain(outputs.DocsUrl!.Value)).toBe(`https://${DASHBOARD_DOMAIN}/docs/`);
  });

  it('-c docsBaseUrl reaches every function as DOCS_BASE_URL and every gateway response docUrl', { timeout: SYNTH_TIMEOUT_MS }, () => {
    const template = Template.fromStack(addPaymentsStack(new App({ context: stageContext({ stage: 'dev', docsBaseUrl: PUBLISHED_DOCS }) })));
    const { functionBases, bodies } = functionsAndResponses(template);
    for (const base of functionBases) expect(base).toBe(PUBLISHED_DOCS);
    for (const body of bodies) {
      expect(body.docUrl).toBe(`${PUBLISHED_DOCS}#error-${body.code}`);
      expect(body.requestId).toBe('req_$context.requestId');
    }
  });
});
