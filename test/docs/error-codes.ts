import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICE_CODES } from '../../shared/domain/decline-codes.ts';

/** The page whose table is the error catalogue: every error body's docUrl opens one of its rows. */
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

/** The rows of the catalogue: `| status | code cell | meaning |`, the code cell holding the code(s) and their anchors. */
export function catalogueRows(): { status: number; cell: string; meaning: string }[] {
  const page = readFileSync(ERRORS_PAGE, 'utf8');
  const catalogue = page.slice(page.indexOf('\n## Catalogue'), page.indexOf('\n## Request ids'));
  return [...catalogue.matchAll(/^\| (\d{3}) \| (.+?) \| (.+) \|$/gm)].map((m) => ({ status: Number(m[1]), cell: m[2]!, meaning: m[3]! }));
}

/** Every code the catalogue lists. */
export const catalogueCodes = (): string[] => catalogueRows().flatMap((row) => [...row.cell.matchAll(/`([a-z_]+)`/g)].map((c) => c[1]!));
