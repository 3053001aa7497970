import * as z from 'zod';
import * as manifest from '../../shared/route-manifest.ts';
import { NotFoundError } from '../../shared/errors.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';

const LogoParamsSchema = z.strictObject({
  merchantId: z.string().regex(/^mer_[0-9A-Za-z_]{1,64}$/, { error: 'must be a merchant id (mer_...)' }),
  hash: z.string().regex(/^[0-9a-f]{32}$/, { error: 'must be a logo hash (32 lowercase hex characters)' }),
});

/** A year, immutable: the hash in the URL changes with the image, so a cached copy is never stale. */
const LOGO_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * GET /v1/checkout/logos/{merchantId}/{hash}, no key: the merchant logo the checkout page shows (an <img> on the page's
 * own origin; CloudFront caches it). Only the current logo's hash answers; any other is 404, like a missing merchant.
 */
export const { build, handler, schemas } = defineApiHandler(
  manifest.getMerchantLogo,
  { params: LogoParamsSchema },
  async (req, deps) => {
    const logo = await deps.merchants.getLogo(req.params.merchantId, req.params.hash);
    if (!logo) throw new NotFoundError('logo', 'hash');
    return {
      statusCode: 200,
      body: null,
      bytes: logo.bytes,
      // No CSP beyond the API's own (default-src 'none'): opened on its own, the image runs nothing.
      headers: { 'Content-Type': logo.contentType, 'Cache-Control': LOGO_CACHE_CONTROL },
    };
  },
);
