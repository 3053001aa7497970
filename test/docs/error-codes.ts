import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICE_CODES } from '../../shared/domain/decline-codes.ts';

/** The page of the error catalogue: every error body's docUrl opens one of its entries. */
export const ERRORS_PAGE = 'docs/errors.md';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Every error code the code base can answer with: thrown errors, rendered error bodies and domain refusals. */
export function answeredCodes(): Set<string> {
  const patterns = [
    /new (?:ConflictError|GoneError)\('([a-z_]+)'/g,
    /new ApiError\(\d{3}, '([a-z_]+)'/g,
    /errorBody\(\d{3}, '([a-z_]+)'/g,
    /new ValidationError\([^;]*?, '([a-z_]+)'\)/g,
    /super\(\d{3}, '([a-z_]+)'/g,
    /code: '([a-z_]+)'/g,
  ];
  const codes = new Set<string>();
  // Not scanned: shared/schemas (zod issue codes, turned into parameter_* codes) and shared/client (the caller's side).
  const scanned = [...sources('functions'), ...sources('shared'), 'infra/sandbox/server.ts', 'infra/sandbox/sandbox-page.ts', 'infra/gateway-responses.ts'].filter((f) => !/^shared\/(schemas|client)\//.test(f));
  for (const file of scanned) {
    const text = readFileSync(file, 'utf8');
    // A connector's `code: '...'` is its network's decline or outcome code (a transaction's errorCode), not an API error.
    const own = /^shared\/connectors\//.test(file) ? patterns.filter((p) => !p.source.startsWith('code')) : patterns;
    for (const pattern of own) for (const match of text.matchAll(pattern)) codes.add(match[1]!);
  }
  // Attempts rejected before the bank, and a bank that cannot check an OTP, answer with these service codes.
  codes.add(SERVICE_CODES.INVALID_PAYMENT_DATA);
  codes.add(SERVICE_CODES.PROCESSOR_UNAVAILABLE);
  return codes;
}

/** One code's entry in the catalogue: the heading `### <a id="error-<code>"></a>\`<code>\`` and the text up to the next heading. */
export interface CatalogueEntry {
  code: string;
  /** The heading's anchor. */
  anchor: string;
  body: string;
}

/** The catalogue section of the errors page: from its heading to the next section's. */
export function catalogueSection(): string {
  const page = readFileSync(ERRORS_PAGE, 'utf8');
  return page.slice(page.indexOf('\n## Catalogue'), page.indexOf('\n## Request ids'));
}

/** The entries of the catalogue, in order. */
export function catalogueEntries(): CatalogueEntry[] {
  const parts = catalogueSection().split(/^(?=### )/m).slice(1);
  return parts.map((part) => {
    const heading = /^### <a id="([^"]+)"><\/a>`([a-z_]+)`\n/.exec(part);
    if (!heading) throw new Error(`a catalogue heading that is not an entry: ${part.split('\n')[0]}`);
    return { anchor: heading[1]!, code: heading[2]!, body: part.slice(heading[0].length) };
  });
}

/** Every code the catalogue has an entry for. */
export const catalogueCodes = (): string[] => catalogueEntries().map((entry) => entry.code);
