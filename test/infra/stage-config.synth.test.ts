import { App, RemovalPolicy } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CHECKOUT_BASE_URL, DEFAULT_WAF_RATE_LIMIT_PER_IP, gatewayUrlParameterName, readStageConfig, readStageEnvironment, stackNameFor } from '../../infra/stage-config.ts';
import { PRODUCTION_DOMAINS } from './stage-context.ts';

const configFrom = (context: Record<string, unknown>) => readStageConfig(new App({ context }).node);

describe('readStageConfig', () => {
  it('defaults to the dev stage, destroyable, with the documented defaults', () => {
    const config = configFrom({});
    expect(config).toMatchObject({
      stage: 'dev',
      production: false,
      checkoutBaseUrl: DEFAULT_CHECKOUT_BASE_URL,
      apiThrottle: { rateLimit: 200, burstLimit: 400 },
      removalPolicy: RemovalPolicy.DESTROY,
    });
    expect(stackNameFor(config.stage)).toBe('svc-payments-dev');
  });

  it('treats prod as production: retained resources, and custom domains it must be given', () => {
    expect(() => configFrom({ stage: 'prod' })).toThrow(/-c checkoutDomain=<name> with -c checkoutCertificateArn=<ACM ARN> or -c hostedZoneId=<id> -c hostedZoneName=<zone>/);
    const config = configFrom({ stage: 'prod', ...PRODUCTION_DOMAINS });
    expect(config).toMatchObject({
      production: true,
      removalPolicy: RemovalPolicy.RETAIN,
      checkoutBaseUrl: 'https://pay.example.com',
      checkoutDomain: { name: 'pay.example.com', certificateArn: PRODUCTION_DOMAINS.checkoutCertificateArn },
      apiDomain: { name: 'api.pay.example.com' },
      hostedZone: { id: PRODUCTION_DOMAINS.hostedZoneId, name: 'pay.example.com' },
    });
  });

  it('checks the domains: a certificate source for each, the checkout one in us-east-1, names inside the zone', () => {
    expect(() => configFrom({ checkoutDomain: 'pay.example.com' })).toThrow(/checkoutCertificateArn.*hostedZoneId/);
    expect(() => configFrom({ checkoutDomain: 'pay.example.com', checkoutCertificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/0b6a7a4e-1111-4222-8333-944455556666' })).toThrow(/us-east-1/);
    expect(() => configFrom({ apiDomain: 'api.other.example', hostedZoneId: 'Z1', hostedZoneName: 'pay.example.com' })).toThrow(/not in the hosted zone/);
    expect(() => configFrom({ hostedZoneId: 'Z1' })).toThrow(/hostedZoneName/);
    expect(() => configFrom({ apiDomain: 'not a domain', hostedZoneId: 'Z1', hostedZoneName: 'pay.example.com' })).toThrow(/apiDomain/);
    expect(() => configFrom({ checkoutBaseUrl: 'https://pay.example.com' })).toThrow(/checkoutDomain/);
    expect(configFrom({ apiDomain: 'api.pay.example.com', hostedZoneId: 'Z1', hostedZoneName: 'pay.example.com.' })).toMatchObject({ apiDomain: { name: 'api.pay.example.com' }, checkoutDomain: undefined });
  });

  it('reads throttling limits given as strings on the command line', () => {
    expect(configFrom({ apiThrottleRateLimit: '50', apiThrottleBurstLimit: '75' }).apiThrottle).toEqual({ rateLimit: 50, burstLimit: 75 });
  });

  it('reads gateway URLs, the WAF flood limit and the on-call address from context; gateways not given come from SSM', () => {
    expect(configFrom({})).toMatchObject({ gatewayUrls: {}, wafRateLimitPerIp: DEFAULT_WAF_RATE_LIMIT_PER_IP, alarmEmail: undefined });
    const config = configFrom({ bankDirectUrl: 'https://bank.example/api/', wafRateLimitPerIp: '2000', alarmEmail: 'oncall@example.com' });
    expect(config).toMatchObject({ gatewayUrls: { bank_direct: 'https://bank.example/api' }, wafRateLimitPerIp: 2000, alarmEmail: 'oncall@example.com' });
    expect(gatewayUrlParameterName('prod', 'bank_otp')).toBe('/svc-payments/prod/gateways/bank_otp/url');
    expect(() => configFrom({ cardProcessorUrl: 'http://processor.example' })).toThrow(/cardProcessorUrl.*https/);
  });

  it('refuses a stage name API Gateway and CloudFormation would not take, and a bad limit', () => {
    expect(() => configFrom({ stage: 'Prod_1' })).toThrow(/stage/);
    expect(() => configFrom({ apiThrottleRateLimit: 'fast' })).toThrow(/apiThrottleRateLimit/);
  });
});

describe('readStageEnvironment', () => {
  const environmentFrom = (context: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) => readStageEnvironment(new App({ context }).node, env);

  it('takes the account and region from context first, then from the CDK CLI', () => {
    expect(environmentFrom({ account: '111111111111', region: 'sa-east-1' }, { CDK_DEFAULT_ACCOUNT: '222222222222', CDK_DEFAULT_REGION: 'eu-west-1' })).toEqual({ account: '111111111111', region: 'sa-east-1' });
    expect(environmentFrom({}, { CDK_DEFAULT_ACCOUNT: '222222222222', CDK_DEFAULT_REGION: 'eu-west-1' })).toEqual({ account: '222222222222', region: 'eu-west-1' });
  });

  it('refuses to guess: without both it says which is missing and how to give it', () => {
    expect(() => environmentFrom({})).toThrow(/-c account=.*-c region=.*Missing: account and region/);
    expect(() => environmentFrom({ account: '111111111111' })).toThrow(/Missing: region\./);
    expect(() => environmentFrom({ region: 'eu-west-1' }, { CDK_DEFAULT_REGION: 'us-east-1' })).toThrow(/Missing: account\./);
  });

  it('refuses a malformed account or region', () => {
    expect(() => environmentFrom({ account: '1234', region: 'eu-west-1' })).toThrow(/12-digit/);
    expect(() => environmentFrom({ account: '111111111111', region: 'Europe' })).toThrow(/region/);
  });
});
