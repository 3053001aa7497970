/**
 * The platform team's side of test-mode requests (admin CLI): list the pending ones, approve or refuse one. An
 * approval switches the merchant's test mode for the gateway in the same transaction.
 */
import type { GatewayId } from '../domain/merchant.ts';
import { AdminError } from '../admin/errors.ts';
import type { TestModeRequestStore } from '../store/test-mode-request-store.ts';
import { ConditionFailedError } from '../store/conditions.ts';
import type { TestModeRequest } from '../domain/test-mode-request.ts';

/**
 * Approves (true) or refuses (false) the merchant's pending request for the gateway.
 *
 * @example
 * await decideTestModeRequest(stores, 'mer_123', 'bank_direct', true, Date.now());
 */
export async function decideTestModeRequest(
  stores: { testModeRequests: TestModeRequestStore },
  merchantId: string,
  gateway: GatewayId,
  approve: boolean,
  now: number,
): Promise<TestModeRequest> {
  const request = (await stores.testModeRequests.listForMerchant(merchantId)).find((r) => r.gateway === gateway && r.status === 'pending');
  if (!request) throw new AdminError(`Merchant ${merchantId} has no pending test-mode request for ${gateway}.`);
  try {
    return await stores.testModeRequests.decide(request, approve, new Date(now).toISOString());
  } catch (error) {
    if (error instanceof ConditionFailedError) throw new AdminError('The request changed meanwhile (a newer one, or decided already): list the requests again.', { cause: error });
    throw error;
  }
}
