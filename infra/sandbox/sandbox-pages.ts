/**
 * The pages the sandbox serves beside the API: the icon, the checkout, the dashboard, the API reference and the docs. Each
 * built page is built on the first request under its path and kept for the process: most sandboxes (those of the
 * tests) never open one, and building them all (esbuild twice, the docs rendered) took every sandbox half a second
 * of CPU at start on a busy machine. A restart of `npm start` is a new process, so it still serves a fresh build.
 *
 * @example
 * const pages = sandboxPages(() => 'http://localhost:4010');
 * pages('GET', '/checkout'); // the checkout page, or null when the path is no page's
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { buildCheckout, CHECKOUT_PATH } from '../../checkout/build.ts';
import { serveCheckout } from '../../checkout/serve-checkout.ts';
import { buildDashboard, DASHBOARD_PATH } from '../../dashboard/build.ts';
import { serveDashboard } from '../../dashboard/serve-dashboard.ts';
import { buildDocsSite, DOCS_PATH } from '../docs-site.ts';
import { serveSiteIcon } from '../site-icon.ts';
import { serveApiReference } from './api-reference.ts';
import { serveDocs } from './docs-pages.ts';

type ServePage = (method: string, pathname: string) => APIGatewayProxyResult | null;

/** `build()`'s answers for `prefix` and the paths under it, built at the first request for one of them. */
function builtOnFirstRequest(prefix: string, build: () => ServePage): ServePage {
  let serve: ServePage | undefined;
  return (method, pathname) => {
    if (pathname !== prefix && !pathname.startsWith(`${prefix}/`)) return null;
    serve ??= build();
    return serve(method, pathname);
  };
}

// Built once per process, whatever sandbox serves them: they name no address.
const sharedPages: ServePage[] = [
  serveSiteIcon,
  builtOnFirstRequest(CHECKOUT_PATH, () => serveCheckout(buildCheckout())),
  builtOnFirstRequest(DASHBOARD_PATH, () => serveDashboard(buildDashboard())),
  serveApiReference(),
];

/**
 * The pages of one sandbox, whose address `origin` answers once it listens: its docs link to it, not to the default
 * port. The answer for a path is the first page's, in the order above, the docs last (the API reference lives under /docs).
 */
export function sandboxPages(origin: () => string): ServePage {
  const pages = [...sharedPages, builtOnFirstRequest(DOCS_PATH, () => serveDocs(buildDocsSite({ sandboxOrigin: origin() })))];
  return (method, pathname) => {
    for (const serve of pages) {
      const answer = serve(method, pathname);
      if (answer) return answer;
    }
    return null;
  };
}
