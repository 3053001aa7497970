import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { MeSchema } from '../../shared/schemas/dashboard-schemas.ts';

/** GET /v1/dashboard/me: who is signed in, for which merchant. */
export const { build, handler, schemas, parts } = defineApiHandler('getDashboardMe', { responses: { success: { 200: MeSchema } } }, async (req) => {
  const { merchant, user } = req.auth;
  return { statusCode: 200, body: { user, merchant: { id: merchant.id, name: merchant.name, businessName: merchant.businessName ?? null } } };
}, { parts: [userTokensFromEnvironment] });
