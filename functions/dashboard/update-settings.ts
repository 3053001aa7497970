import { auditEntry } from '../../shared/domain/audit-entry.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { signedInUser } from '../../shared/dashboard/signed-in-user.ts';
import { BrandingError, type BrandingInput } from '../../shared/domain/merchant-branding.ts';
import { ValidationError } from '../../shared/errors.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { UpdateSettingsBodySchema } from '../../shared/schemas/dashboard-schemas.ts';
import { settingsView } from '../../shared/dashboard/settings-view.ts';

/**
 * PATCH /v1/dashboard/settings: business name and logo (MerchantStore.updateBranding, which checks them). The audit
 * entry is written right after: updateBranding is its own transaction (the logo's bytes beside the merchant).
 */
export const { build, handler, schemas } = defineApiHandler(
  manifest.updateDashboardSettings,
  { body: UpdateSettingsBodySchema },
  async (req, deps) => {
    const actor = signedInUser(req.auth);
    const { businessName, logo } = req.body;
    const input: BrandingInput = {
      ...(businessName !== undefined && { businessName }),
      ...(logo !== undefined && { logo: logo && { contentType: logo.contentType, bytes: new Uint8Array(Buffer.from(logo.dataBase64, 'base64')) } }),
    };
    let merchant;
    try {
      merchant = await deps.merchants.updateBranding(actor.merchantId, input);
    } catch (error) {
      if (error instanceof BrandingError) throw new ValidationError(error.message, error.field, 'parameter_invalid');
      throw error;
    }
    const changed = { ...(businessName !== undefined && { businessName }), ...(logo !== undefined && { logo: logo ? merchant.logo?.hash ?? null : null }) };
    await deps.audit.record(auditEntry(actor, req.now, 'settings.updated', actor.merchantId, changed));
    return { statusCode: 200, body: await settingsView(deps, merchant) };
  },
  { userTokens: userTokensFromEnvironment },
);
