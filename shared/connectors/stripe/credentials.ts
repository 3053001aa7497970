/**
 * A merchant's Stripe credentials: the account's secret key, as Stripe issues it. Checked when loaded (a clear 400
 * naming the field) and again when used, since the environment decides which kind of key is right.
 */
import * as z from 'zod';
import type { BankAccount } from '../../gateways/payment-gateway.ts';

/** Stripe secret keys: sk_live_ for live payments, sk_test_ for its test mode (test cards, no money moves). */
const SECRET_KEY = /^sk_(live|test)_[0-9A-Za-z]{8,247}$/;
const TEST_SECRET_KEY = /^sk_test_[0-9A-Za-z]{8,247}$/;

/**
 * `secretKey` is the key of the mode the merchant uses (sk_live_..., or sk_test_... for a merchant in test mode only);
 * `testSecretKey`, optional, is the account's test-mode key beside a live one, so one merchant takes both modes.
 */
export const stripeCredentialsSchema = z
  .object({
    secretKey: z
      .string({ error: 'secretKey is required: the Stripe account\'s secret key (sk_live_... or sk_test_...).' })
      .regex(SECRET_KEY, { error: 'secretKey must be a Stripe secret key: sk_live_... or sk_test_... followed by letters and digits.' }),
    testSecretKey: z
      .string({ error: 'testSecretKey must be a string.' })
      .regex(TEST_SECRET_KEY, { error: 'testSecretKey must be a Stripe test-mode secret key: sk_test_... followed by letters and digits.' })
      .optional(),
  })
  .strict();

export type StripeCredentials = z.infer<typeof stripeCredentialsSchema>;

/** The credentials cannot be used for this account's environment; nothing is sent to Stripe. */
export class StripeCredentialsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StripeCredentialsError';
  }
}

/**
 * The secret key to call Stripe with: the account carries the loaded credentials' JSON text. A test account gets an
 * sk_test_ key and a live one an sk_live_ key, never the other, so a test session can never move money.
 *
 * @example
 * secretKeyFor({ environment: 'test', credentials: '{"secretKey":"sk_live_abc12345","testSecretKey":"sk_test_abc12345"}' }) // 'sk_test_abc12345'
 */
export function secretKeyFor(account: BankAccount): string {
  if (!account.credentials) throw new StripeCredentialsError(`No Stripe secret key is loaded for the ${account.environment} environment.`);
  let decoded: unknown;
  try {
    decoded = JSON.parse(account.credentials);
  } catch {
    throw new StripeCredentialsError('The loaded Stripe credentials are not a JSON object.');
  }
  const parsed = stripeCredentialsSchema.safeParse(decoded);
  if (!parsed.success) throw new StripeCredentialsError(`The loaded Stripe credentials are not valid: ${parsed.error.issues[0]?.message ?? 'unknown problem'}`);
  const { secretKey, testSecretKey } = parsed.data;
  const key = account.environment === 'live' ? secretKey : (testSecretKey ?? secretKey);
  const wanted = account.environment === 'live' ? 'sk_live_' : 'sk_test_';
  if (!key.startsWith(wanted)) {
    throw new StripeCredentialsError(`A ${account.environment} payment needs a ${wanted}... key, and none is loaded (secretKey${account.environment === 'test' ? ' or testSecretKey' : ''}).`);
  }
  return key;
}
