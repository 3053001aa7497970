import type { MerchantKeys } from '../../../shared/admin/merchant-admin.ts';
import type { ApiResponse } from './api-gateway.ts';
import type { DeployedStack } from './deployed-stack.ts';

export const VISA = '4111111111111111';
export const card = () => ({ number: VISA, expMonth: 12, expYear: 2030, cvv: '123', holderName: 'Ana Pérez' });
export const DOCUMENT = { type: 'V', id: '12345678' };

/** What the success scenarios share: a merchant, and what earlier steps made (a paid session, a stored card, an endpoint). */
export interface ScenarioState {
  merchantId: string;
  keys: MerchantKeys;
  paidSession?: string;
  transaction?: string;
  cardToken?: string;
  endpointId?: string;
  /** An endpoint the sweep creates, and deletes last. */
  extraEndpointId?: string;
  receiverUrl: string;
  /** What a scenario made once for the others (a signed-in admin, a card verified on the OTP bank), by name. */
  shared: Map<string, Promise<unknown>>;
}

/** A successful call of one route: its answer (a status of 300 or more fails the sweep, with the answer's text). */
export type Scenario = (stack: DeployedStack, state: ScenarioState) => Promise<ApiResponse>;

/** What `make` answers, made once per state: scenarios that need the same thing share it, whichever runs first. */
export function once<T>(state: ScenarioState, name: string, make: () => Promise<T>): Promise<T> {
  if (!state.shared.has(name)) state.shared.set(name, make());
  return state.shared.get(name) as Promise<T>;
}

/**
 * A scenario step that did not give what the next step needs: its own failure, or (a 2xx of the wrong kind) a failure
 * saying why, so the sweep reports it.
 */
export const failedStep = (answer: ApiResponse, why: string): ApiResponse => ({ ...answer, status: answer.status < 300 ? 599 : answer.status, text: `${why}: ${answer.text}` });
