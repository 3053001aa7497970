import * as z from 'zod';
import type { BankAccount } from '../../gateways/payment-gateway.ts';
import { credentialSetOf } from '../credential-slots.ts';

/**
 * What Banco Mercantil issues a merchant per environment (by email, first for certification in its sandbox, then for
 * production): the client id of its IBM API Connect app (header X-IBM-Client-Id), the secret key of the field
 * encryption, and the ids of merchant_identify (integratorId and merchantId are numbers, terminalId a string, as in
 * the bank's samples).
 */
const SET_SHAPE = {
  clientId: z.string().min(1),
  secretKey: z.string().min(1),
  integratorId: z.int().positive(),
  merchantId: z.int().positive(),
  terminalId: z.string().min(1),
};
const SET_FIELDS = Object.keys(SET_SHAPE) as (keyof typeof SET_SHAPE)[];

export const MercantilCredentialSetSchema = z.strictObject(SET_SHAPE);
export type MercantilCredentialSet = z.infer<typeof MercantilCredentialSetSchema>;

/**
 * What a merchant loads, as Stripe's secretKey and testSecretKey: the production set's five fields at the top level
 * (the file the bank sends, as it is) and the sandbox set under `test`; either may be left out, not both. Nothing
 * tells one set from the other, so the slot decides: a test session gets only `test`, a live one only the top level.
 */
export const MercantilCredentialsSchema = z
  .strictObject({ ...SET_SHAPE, test: MercantilCredentialSetSchema.optional() })
  .partial({ clientId: true, secretKey: true, integratorId: true, merchantId: true, terminalId: true })
  .superRefine((loaded, ctx) => {
    const given = SET_FIELDS.filter((field) => loaded[field] !== undefined);
    if (given.length === 0 && loaded.test) return;
    // Half a live set, or nothing at all: the first field missing is named, as for any missing field.
    for (const field of SET_FIELDS) {
      if (loaded[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: 'the live set needs all five fields; the sandbox set goes under test' });
    }
  });

export type MercantilCredentials = z.infer<typeof MercantilCredentialsSchema>;

/** The bank's sandbox set the simulator knows (infra/sandbox/mercantil/): the bank's own .env placeholders. */
export const SIMULATOR_CREDENTIAL_SET: MercantilCredentialSet = { clientId: 'changeme', secretKey: 'changeme', integratorId: 31, merchantId: 123456, terminalId: 'abcde' };

/** That set loaded as a merchant's test credentials, as infra/sandbox/mercantil/test-credentials.json holds it. */
export const SIMULATOR_TEST_CREDENTIALS: MercantilCredentials = { test: SIMULATOR_CREDENTIAL_SET };

/**
 * The set for the account's environment, or why there is none (the loaded JSON no longer parses, or its slot for
 * this environment is empty). A test account never gets the production set, nor a live one the sandbox set.
 *
 * @example
 * credentialSetFor({ environment: 'test', credentials: JSON.stringify(SIMULATOR_TEST_CREDENTIALS) }) // SIMULATOR_CREDENTIAL_SET
 */
export const credentialSetFor = (account: BankAccount): MercantilCredentialSet | { problem: string } =>
  credentialSetOf(account, { loaded: MercantilCredentialsSchema, set: MercantilCredentialSetSchema, network: 'Mercantil', testEnvironment: 'sandbox' });
