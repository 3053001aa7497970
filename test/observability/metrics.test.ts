import { describe, expect, it, vi } from 'vitest';
import { countedGateway } from '../../shared/gateways/counted-gateway.ts';
import { GatewayUnavailableError, type PaymentGateway } from '../../shared/gateways/payment-gateway.ts';
import { emfMetrics, metricsFromEnvironment, type ServiceMetrics } from '../../shared/observability/metrics.ts';

type EmfLine = { _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[] } } & Record<string, unknown>;

/** The EMF lines Powertools prints to stdout while `emit` runs. */
function emitted(emit: () => void): EmfLine[] {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    emit();
  } finally {
    spy.mockRestore();
  }
  return lines.flatMap((l) => l.split('\n')).filter((l) => l.trim()).map((l) => JSON.parse(l) as EmfLine);
}

describe('emfMetrics', () => {
  it('prints one EMF line per charge, in the stage namespace, with service and outcome as dimensions and the gateway as metadata', () => {
    const [line, ...rest] = emitted(() => emfMetrics('svc-payments/test').charge('declined', 'bank_direct'));
    expect(rest).toEqual([]);
    const [definition] = line!._aws.CloudWatchMetrics;
    expect(definition).toMatchObject({ Namespace: 'svc-payments/test', Metrics: [{ Name: 'Charges', Unit: 'Count' }] });
    expect(definition!.Dimensions[0]!.sort()).toEqual(['outcome', 'service']);
    expect(line).toMatchObject({ Charges: 1, outcome: 'declined', service: 'svc-payments', gateway: 'bank_direct' });
  });

  it('keeps outcomes apart when several are recorded in one invocation', () => {
    const lines = emitted(() => {
      const metrics = emfMetrics('svc-payments/test');
      metrics.webhookDelivery('succeeded');
      metrics.webhookDelivery('failed');
    });
    expect(lines.map((l) => [l.outcome, l.WebhookDeliveries])).toEqual([
      ['succeeded', 1],
      ['failed', 1],
    ]);
  });

  it('records an expiry with how late it fired, never negative', () => {
    const lines = emitted(() => emfMetrics('svc-payments/test').expiry(-0.4));
    expect(lines.map((l) => l._aws.CloudWatchMetrics[0]!.Metrics[0]!.Name)).toEqual(['SessionExpiries', 'ExpiryLatenessSeconds']);
    expect(lines[1]).toMatchObject({ ExpiryLatenessSeconds: 0 });
  });

  it('emits nothing where no namespace is configured', () => {
    expect(emitted(() => metricsFromEnvironment({}).rateLimitRejection('reads'))).toEqual([]);
    expect(emitted(() => metricsFromEnvironment({ POWERTOOLS_METRICS_NAMESPACE: 'svc-payments/test' }).rateLimitRejection('reads'))).toHaveLength(1);
  });
});

describe('countedGateway', () => {
  const recorded: [string, string][] = [];
  const metrics: ServiceMetrics = { charge: (outcome, gateway) => recorded.push([outcome, gateway]), webhookDelivery: () => {}, expiry: () => {}, rateLimitRejection: () => {}, parkedRecord: () => {} };
  const bank = (charge: PaymentGateway['charge']): PaymentGateway => ({
    id: 'bank_otp',
    charge,
    verifyOtp: async () => 'valid',
    authorize: async () => ({ kind: 'approved', processorReference: 'p_2' }),
    chargeStatus: async () => ({ kind: 'not_found' }),
    refund: async () => ({ kind: 'succeeded', processorReference: 'r_1' }),
    refundStatus: async () => ({ kind: 'not_found' }),
  });

  it('counts what the bank decided on charges and authorisations, and a bank that did not answer', async () => {
    recorded.length = 0;
    const request = {} as Parameters<PaymentGateway['charge']>[0];
    const account = {} as Parameters<PaymentGateway['charge']>[1];
    await countedGateway(bank(async () => ({ kind: 'otp_required' })), metrics).charge(request, account);
    await countedGateway(bank(async () => ({ kind: 'otp_required' })), metrics).authorize({ transactionReference: 't', sessionReference: 's' }, account);
    const down = countedGateway(bank(async () => { throw new GatewayUnavailableError('connection refused'); }), metrics);
    await expect(down.charge(request, account)).rejects.toBeInstanceOf(GatewayUnavailableError);
    expect(recorded).toEqual([
      ['otp_required', 'bank_otp'],
      ['approved', 'bank_otp'],
      ['unavailable', 'bank_otp'],
    ]);
  });
});
