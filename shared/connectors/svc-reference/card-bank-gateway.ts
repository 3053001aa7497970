import type { GatewayId } from '../../domain/merchant.ts';
import { chargeStatus, postAuthorize, postCardCharge, refundOperations, verifyOtp, type ChargesEndpoint } from './card-charges.ts';
import type { BankAccount, PaymentGateway } from '../../gateways/payment-gateway.ts';

/**
 * The VES banks: the direct-API bank (test and live environments, under {baseUrl}/test and {baseUrl}/live) and
 * the bank that confirms every charge with an OTP (live only). Both answer with the shared card protocol, refunds
 * included (a test charge is refunded in the test environment, like it was charged).
 *
 * @example
 * const bank = cardBankGateway('bank_direct', { baseUrl: 'https://bank.example/api', timeoutMs: 8000, environments: true });
 */
export function cardBankGateway(id: GatewayId, options: { baseUrl: string; timeoutMs: number; environments: boolean }): PaymentGateway {
  const root = options.baseUrl.replace(/\/+$/, '');
  const endpointFor = (account: BankAccount): ChargesEndpoint => ({
    base: () => (options.environments ? `${root}/${account.environment}` : root),
    timeoutMs: options.timeoutMs,
  });
  return {
    id,
    charge: (request, account) => postCardCharge(endpointFor(account), request, account),
    verifyOtp: (reference, code, account) => verifyOtp(endpointFor(account), reference, code, account),
    authorize: (reference, account) => postAuthorize(endpointFor(account), reference, account),
    chargeStatus: (reference, account) => chargeStatus(endpointFor(account), reference, account),
    // These banks offer no void: a same-day refund is still a refund (the bank nets it before paying out, if it can).
    refund: (request, account) => refundOperations(endpointFor(account), { voids: false }).refund(request, account),
    refundStatus: (request, account) => refundOperations(endpointFor(account), { voids: false }).refundStatus(request, account),
  };
}
