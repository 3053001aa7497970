import { AllowedMethods, CachePolicy, OriginRequestPolicy, ViewerProtocolPolicy } from 'aws-cdk-lib/aws-cloudfront';
import type { Construct } from 'constructs';
import { fileURLToPath } from 'node:url';
import { DASHBOARD_PATH, writeDashboard } from '../../dashboard/build.ts';
import { DASHBOARD_SECURITY_HEADERS } from '../../dashboard/page-headers.ts';
import { DOCS_PATH, writeDocsSite } from '../docs-site.ts';
import { StaticSite, type SiteProps, type StaticPage } from './static-site.ts';

const DASHBOARD_PAGE: StaticPage = {
  path: DASHBOARD_PATH,
  sourceDir: fileURLToPath(new URL('../../dashboard/', import.meta.url)),
  write: writeDashboard,
  securityHeaders: DASHBOARD_SECURITY_HEADERS,
};

/**
 * The merchants' dashboard in AWS (a StaticSite): the same CSP and security headers as the sandbox serves
 * (dashboard/page-headers.ts), and every /v1/* call routed to the API stage, uncached, with the user's Authorization
 * header: one origin, so no CORS and a CSP of 'self'. No custom domain: the default *.cloudfront.net one. The docs
 * (docs/*.md rendered at synth, infra/docs-site.ts) are served beside it at /docs/: each error's docUrl opens there.
 *
 * @example
 * const site = new DashboardSite(this, 'DashboardSite', { config, restApi: api.restApi, edgeMarker });
 * new CfnOutput(this, 'DashboardUrl', { value: `${site.url}/dashboard/` });
 */
export class DashboardSite extends StaticSite {
  constructor(scope: Construct, id: string, site: SiteProps) {
    super(scope, id, {
      ...site,
      page: DASHBOARD_PAGE,
      pages: { path: DOCS_PATH, sourceDir: fileURLToPath(new URL('../../docs/', import.meta.url)), write: writeDocsSite },
      comments: { distribution: 'merchant dashboard', securityHeaders: 'dashboard security headers' },
      apiBehaviors: (origin) => ({
        '/v1/*': {
          origin,
          // Tokens, keys and bank credentials are never sent over plain HTTP, not even to be redirected.
          viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          // Nothing cached: with caching disabled, the all-viewer policy forwards Authorization (the user's token),
          // Svc-Mode and Idempotency-Key; the host header is the API's own.
          cachePolicy: CachePolicy.CACHING_DISABLED,
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        },
      }),
      nagReasons: {
        bucketAccessLogs: 'The bucket holds only the static dashboard files, read by CloudFront alone; every merchant action is an API call, logged and audited there.',
        geoRestriction: 'Merchants work from any country; no geographic restriction by design.',
        edgeFirewall: "The /v1/* calls go on to the API stage, whose regional WAF web ACL inspects them; the dashboard's files are static.",
        distributionAccessLogs: 'API calls through the distribution are logged by the API access logs, WAF and the audit log; reads of the static files hold nothing to keep.',
        defaultCertificate: 'The default *.cloudfront.net certificate cannot set a minimum TLS version; a custom domain attached to this distribution gets TLSv1.2_2021.',
      },
    });
  }
}
