/**
 * Networks whose merchants hold one credential set per environment (Mercantil, Banco de Venezuela) load them as
 * Stripe's secretKey and testSecretKey: the production set at the top level, the test set under `test`. A test
 * account gets only the test set, a live one only the top level: a payment never crosses environments.
 */
import type * as z from 'zod';
import type { BankAccount } from '../gateways/payment-gateway.ts';

export interface CredentialSlots<S> {
  /** What a merchant loads: the production set's fields and `test`. */
  loaded: z.ZodType<{ test?: S | undefined }>;
  /** One set, as the network issues it. */
  set: z.ZodType<S>;
  /** The network's name, in the problems told. */
  network: string;
  /** What the network calls its test environment ("sandbox", "QA"). */
  testEnvironment: string;
}

/**
 * The set for the account's environment, or why there is none (the loaded JSON no longer parses, or its slot for
 * this environment is empty).
 */
export function credentialSetOf<S>(account: BankAccount, slots: CredentialSlots<S>): S | { problem: string } {
  let loaded: { test?: S | undefined };
  try {
    const parsed = slots.loaded.safeParse(JSON.parse(account.credentials ?? 'null'));
    if (!parsed.success) return { problem: `The loaded ${slots.network} credentials do not match the connector schema.` };
    loaded = parsed.data;
  } catch {
    return { problem: `The loaded ${slots.network} credentials are not JSON.` };
  }
  const { test, ...live } = loaded;
  if (account.environment === 'test') {
    return test ?? { problem: `No ${slots.network} credentials are loaded for the test environment (the test slot): a test payment never uses the production set.` };
  }
  const set = slots.set.safeParse(live);
  return set.success
    ? set.data
    : { problem: `No ${slots.network} credentials are loaded for the live environment (the top-level fields): a live payment never uses the ${slots.testEnvironment} set.` };
}
