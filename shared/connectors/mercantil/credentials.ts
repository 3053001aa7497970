import * as z from 'zod';

/**
 * What Banco Mercantil issues a merchant (by email, for certification and then for production): the client id of its
 * IBM API Connect app (header X-IBM-Client-Id), the secret key of the field encryption, and the ids of
 * merchant_identify (integratorId and merchantId are numbers, terminalId a string, as in the bank's samples).
 */
export const MercantilCredentialsSchema = z.strictObject({
  clientId: z.string().min(1),
  secretKey: z.string().min(1),
  integratorId: z.int().positive(),
  merchantId: z.int().positive(),
  terminalId: z.string().min(1),
});

export type MercantilCredentials = z.infer<typeof MercantilCredentialsSchema>;

/** The simulator's published test credentials (infra/sandbox/mercantil/): the bank's own .env placeholders. */
export const SIMULATOR_TEST_CREDENTIALS: MercantilCredentials = { clientId: 'changeme', secretKey: 'changeme', integratorId: 31, merchantId: 123456, terminalId: 'abcde' };
