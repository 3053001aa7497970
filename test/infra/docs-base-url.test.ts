import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { readStageConfig } from '../../infra/stage-config.ts';
import { addPaymentsStack } from '../../infra/stack.ts';
import { stageContext, SYNTH_TIMEOUT_MS } from './stage-context.ts';

const README_URL = 'https://git.example.com/acme/svc/blob/main/README.md';

/** -c docsBaseUrl: where each error's docUrl points, in the functions' answers and in API Gateway's own. */
describe('docsBaseUrl', () => {
  it('is read from the context as an https URL, and is absent by default (docUrl then README.md#error-<code>)', () => {
    expect(readStageConfig(new App({ context: { docsBaseUrl: README_URL } }).node).docsBaseUrl).toBe(README_URL);
    expect(readStageConfig(new App({ context: {} }).node).docsBaseUrl).toBeUndefined();
    expect(() => readStageConfig(new App({ context: { docsBaseUrl: 'http://git.example.com/README.md' } }).node)).toThrow(/docsBaseUrl must be an https/);
  });

  it('reaches every function as DOCS_BASE_URL and every gateway response docUrl', { timeout: SYNTH_TIMEOUT_MS }, () => {
    const template = Template.fromStack(addPaymentsStack(new App({ context: stageContext({ stage: 'dev', docsBaseUrl: README_URL }) })));
    const functions = Object.values(template.findResources('AWS::Lambda::Function')).filter((f) => f.Properties.Environment?.Variables?.CHECKOUT_BASE_URL !== undefined);
    expect(functions.length).toBeGreaterThan(20);
    for (const f of functions) expect(f.Properties.Environment.Variables.DOCS_BASE_URL).toBe(README_URL);
    const responses = Object.values(template.findResources('AWS::ApiGateway::GatewayResponse'));
    expect(responses.length).toBeGreaterThan(10);
    for (const r of responses) {
      const body = JSON.parse(r.Properties.ResponseTemplates['application/json'] as string) as { code: string; docUrl: string; requestId: string };
      expect(body.docUrl).toBe(`${README_URL}#error-${body.code}`);
      expect(body.requestId).toBe('req_$context.requestId');
    }
  });
});
