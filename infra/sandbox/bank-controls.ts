/**
 * Sandbox-only control of the simulated OTP bank, on the sandbox's own origin (it does not exist in AWS): the bank
 * asks a stored card to be verified again, as the real one does about every three months, so a developer can see a
 * server-to-server charge soft-declined with 0065, card.authentication_expired, and the card verified again by
 * paying once in the checkout (docs/guide.md).
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { luhnValid } from '../../shared/domain/payment-data.ts';
import { errorBody, jsonResponse } from '../../shared/http/response.ts';
import type { SandboxBank } from './bank/sandbox-bank.ts';

export const REVERIFICATION_PATH = '/__sandbox/bank/reverification';

/**
 * POST /__sandbox/bank/reverification {"cardNumber": "5555 5555 5555 4444"}: the test card the customer paid with.
 * Answers only its last four: a card number is never echoed, even a test one.
 */
export function demandReverification(bank: Pick<SandboxBank, 'demandReverification'>, body: Buffer): APIGatewayProxyResult {
  let cardNumber: unknown;
  try {
    cardNumber = (JSON.parse(body.toString('utf8') || '{}') as { cardNumber?: unknown }).cardNumber;
  } catch {
    return jsonResponse(400, errorBody(400, 'invalid_json', 'The request body is not valid JSON.'));
  }
  const digits = typeof cardNumber === 'string' ? cardNumber.replace(/[\s-]/g, '') : '';
  if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits)) {
    return jsonResponse(400, errorBody(400, 'parameter_invalid', 'cardNumber must be the test card number the customer paid with (12 to 19 digits, spaces allowed).', 'cardNumber'));
  }
  bank.demandReverification(digits);
  return jsonResponse(200, { lastFour: digits.slice(-4), verification: 'required', effect: 'The next POST /v1/charges of this card is declined with 0065 and sends card.authentication_expired.' });
}
