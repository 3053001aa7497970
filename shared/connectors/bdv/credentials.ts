import * as z from 'zod';
import type { BankAccount } from '../../gateways/payment-gateway.ts';
import { credentialSetOf } from '../credential-slots.ts';

/**
 * What Banco de Venezuela issues a merchant per environment, in its "canal Empresas": an API key per product family
 * (header X-API-Key), C2P (`c2pApiKey`: paymentkey, process, annulment) and conciliation (`conciliationApiKey`:
 * getMovement), and the merchant's phone affiliated to pago móvil (`affiliatedPhone`, the bank's
 * commerceNumberInstrument and telefonoDestino), local form. A merchant may hold one family only, never none.
 */
const SET_SHAPE = {
  c2pApiKey: z.string().min(1).optional(),
  conciliationApiKey: z.string().min(1).optional(),
  affiliatedPhone: z.string().regex(/^04(12|14|16|24|26)\d{7}$/, 'a mobile phone in local form, 04141234567'),
};

const noKeyIssue = () => ({ code: 'custom' as const, path: ['c2pApiKey'], message: 'at least one API key: c2pApiKey or conciliationApiKey' });
const hasKey = (set: { c2pApiKey?: string | undefined; conciliationApiKey?: string | undefined }) => Boolean(set.c2pApiKey || set.conciliationApiKey);

export const BdvCredentialSetSchema = z.strictObject(SET_SHAPE).superRefine((set, ctx) => {
  if (!hasKey(set)) ctx.addIssue(noKeyIssue());
});
export type BdvCredentialSet = z.infer<typeof BdvCredentialSetSchema>;

/**
 * What a merchant loads, shaped as Mercantil's: the production set at the top level and the QA set under `test`;
 * either may be left out, not both. A test session gets only `test`, a live one only the top level.
 */
export const BdvCredentialsSchema = z
  .strictObject({ ...SET_SHAPE, affiliatedPhone: SET_SHAPE.affiliatedPhone.optional(), test: BdvCredentialSetSchema.optional() })
  .superRefine((loaded, ctx) => {
    const { test, ...live } = loaded;
    const liveGiven = Object.values(live).some((value) => value !== undefined);
    if (!liveGiven && test) return;
    if (!live.affiliatedPhone) ctx.addIssue({ code: 'custom', path: ['affiliatedPhone'], message: 'the live set needs the affiliated phone; the QA set goes under test' });
    if (!hasKey(live)) ctx.addIssue(noKeyIssue());
  });

export type BdvCredentials = z.infer<typeof BdvCredentialsSchema>;

/** The simulator's own keys and phone (infra/sandbox/bdv/): the bank publishes no test key. */
export const SIMULATOR_CREDENTIAL_SET: BdvCredentialSet = { c2pApiKey: 'bdv-sandbox-c2p-key', conciliationApiKey: 'bdv-sandbox-conciliation-key', affiliatedPhone: '04241234567' };

/** That set loaded as a merchant's test credentials. */
export const SIMULATOR_TEST_CREDENTIALS: BdvCredentials = { test: SIMULATOR_CREDENTIAL_SET };

/**
 * The set for the account's environment, or why there is none: the loaded JSON no longer parses, or its slot for this
 * environment is empty. A test account never gets the production set, nor a live one the QA set.
 *
 * @example
 * credentialSetFor({ environment: 'test', credentials: JSON.stringify(SIMULATOR_TEST_CREDENTIALS) }) // SIMULATOR_CREDENTIAL_SET
 */
export const credentialSetFor = (account: BankAccount): BdvCredentialSet | { problem: string } =>
  credentialSetOf(account, { loaded: BdvCredentialsSchema, set: BdvCredentialSetSchema, network: 'Banco de Venezuela', testEnvironment: 'QA' });
