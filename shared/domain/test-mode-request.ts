/**
 * A merchant's request to switch test mode on or off for one gateway, decided by the platform team (admin CLI).
 * The merchant's `testMode` changes only when a request is approved. Pure: no I/O.
 */
import { GATEWAYS, type GatewayId } from './merchant.ts';

export interface TestModeRequest {
  merchantId: string;
  gateway: GatewayId;
  /** What is asked for: test mode on (true) or off. */
  enabled: boolean;
  status: 'pending' | 'approved' | 'refused';
  requestedAt: string;
  /** The email of the dashboard user who asked. */
  requestedBy: string;
  decidedAt: string | null;
}

/** Why the request cannot be made, or null. Asking for test mode on a gateway without a test environment is refused. */
export function testModeRequestProblem(gateway: GatewayId, enabled: boolean): string | null {
  if (enabled && !GATEWAYS[gateway].supportsTestMode) return `The ${gateway} gateway has no test environment, so test mode cannot be switched on for it.`;
  return null;
}
