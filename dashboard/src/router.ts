/**
 * Routes live in the URL's fragment (#/payments/cs_…?lastFour=0002): one static page serves them all, from S3 as
 * from the sandbox, and the browser's back button walks through searches and pages.
 */
export interface Route {
  /** The first segment: overview, payments, cards, webhooks, developers, settings, audit, security. */
  page: string;
  /** The second segment, if any (a payment reference, an endpoint id, "new"). */
  id: string | null;
  query: URLSearchParams;
}

export function currentRoute(): Route {
  const [path = '', search = ''] = location.hash.replace(/^#\/?/, '').split('?');
  const [page = '', id] = path.split('/').map(decodeURIComponent);
  return { page: page || 'overview', id: id || null, query: new URLSearchParams(search) };
}

/** The fragment of a page: routeHref('payments', null, { lastFour: '0002' }) -> '#/payments?lastFour=0002'. */
export function routeHref(page: string, id: string | null = null, query: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => !!entry[1]));
  const search = params.toString();
  return `#/${page}${id ? `/${encodeURIComponent(id)}` : ''}${search ? `?${search}` : ''}`;
}

export function navigate(href: string): void {
  if (location.hash === href) window.dispatchEvent(new HashChangeEvent('hashchange'));
  else location.hash = href;
}
