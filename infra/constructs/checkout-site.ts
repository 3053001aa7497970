import { AllowedMethods, CachePolicy, OriginRequestHeaderBehavior, OriginRequestPolicy, ViewerProtocolPolicy } from 'aws-cdk-lib/aws-cloudfront';
import type { Construct } from 'constructs';
import { fileURLToPath } from 'node:url';
import { CHECKOUT_PATH, writeCheckout } from '../../checkout/build.ts';
import { CHECKOUT_SECURITY_HEADERS } from '../../checkout/page-headers.ts';
import { StaticSite, type SiteProps, type StaticPage } from './static-site.ts';

/** Anything a Lambda-like function offers to receive the page's address. */
interface AcceptsEnvironment {
  addEnvironment(key: string, value: string): unknown;
}

const CHECKOUT_PAGE: StaticPage = {
  path: CHECKOUT_PATH,
  sourceDir: fileURLToPath(new URL('../../checkout/', import.meta.url)),
  write: writeCheckout,
  securityHeaders: CHECKOUT_SECURITY_HEADERS,
};

/**
 * The buyer's checkout page in AWS (a StaticSite): the same security headers and CSP as the sandbox serves
 * (checkout/page-headers.ts), /v1/checkout/* routed to the API, and the stage's checkoutDomain if it names one.
 * `url` is the base of every session's checkoutUrl.
 *
 * @example
 * const site = new CheckoutSite(this, 'CheckoutSite', { config, restApi: api.restApi, edgeMarker });
 * site.useAsCheckoutBaseUrl(Object.values(api.routeFunctions).map((f) => f.function));
 */
export class CheckoutSite extends StaticSite {
  constructor(scope: Construct, id: string, site: SiteProps) {
    super(scope, id, {
      ...site,
      page: CHECKOUT_PAGE,
      domain: site.config.checkoutDomain && { ...site.config.checkoutDomain, certificateContextKey: 'checkoutCertificateArn' },
      hostedZone: site.config.hostedZone,
      comments: { distribution: 'checkout page', securityHeaders: 'checkout page security headers' },
      apiBehaviors: (origin, scope) => ({
        // Listed first, as CloudFront matches in order. Logos are cached at the edge: the hash in the path changes
        // with the image. Accept is forwarded (outside the cache key) because API Gateway returns a Lambda's base64
        // body as bytes only when the request accepts a binary media type (infra/constructs/api.ts).
        '/v1/checkout/logos/*': {
          origin,
          viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
          cachePolicy: CachePolicy.CACHING_OPTIMIZED,
          originRequestPolicy: new OriginRequestPolicy(scope, 'LogoRequests', {
            comment: 'Checkout logos: the Accept header only, so API Gateway answers bytes',
            headerBehavior: OriginRequestHeaderBehavior.allowList('Accept'),
          }),
        },
        '/v1/checkout/*': {
          origin,
          // Card data is never sent over plain HTTP, not even to be redirected.
          viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          // The API's own host header, or API Gateway would not know the request; everything else as the browser sent it.
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        },
      }),
      nagReasons: {
        bucketAccessLogs: 'The bucket holds only the public static checkout page, read by CloudFront alone; there is nothing to audit.',
        geoRestriction: 'Buyers pay from any country; no geographic restriction by design.',
        edgeFirewall: 'The /v1/checkout/* calls go on to the API stage, whose regional WAF web ACL inspects them; the page itself is static.',
        distributionAccessLogs: 'API calls through the distribution are logged by the API access logs and WAF; reads of the static page hold nothing to keep.',
        defaultCertificate:
          'Only stages without checkoutDomain (never production, which requires it) use the default *.cloudfront.net certificate, which cannot set a minimum TLS version; with checkoutDomain the distribution requires TLSv1.2_2021.',
      },
    });
  }

  /** Makes this site's address (its custom domain, or the distribution's) the base of every checkoutUrl the functions build. */
  useAsCheckoutBaseUrl(functions: AcceptsEnvironment[]): void {
    for (const fn of functions) fn.addEnvironment('CHECKOUT_BASE_URL', this.url);
  }
}
