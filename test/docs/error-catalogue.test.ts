import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVICE_CODES } from '../../shared/domain/decline-codes.ts';
import { DEFAULT_DOCS_BASE_URL, docUrlFor } from '../../shared/http/request-id.ts';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Every error code the code base can answer with: thrown errors, rendered error bodies and domain refusals. */
function answeredCodes(): Set<string> {
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
    for (const pattern of patterns) for (const match of text.matchAll(pattern)) codes.add(match[1]!);
  }
  // Attempts rejected before the bank, and a bank that cannot check an OTP, answer with these service codes.
  codes.add(SERVICE_CODES.INVALID_PAYMENT_DATA);
  codes.add(SERVICE_CODES.PROCESSOR_UNAVAILABLE);
  return codes;
}

describe('the README error catalogue', () => {
  const readme = readFileSync('README.md', 'utf8');
  const catalogue = readme.slice(readme.indexOf('\n## Errors'), readme.indexOf('\n## Rate limits'));

  it('lists every error code the API answers with, with its status, meaning and fix', () => {
    const codes = answeredCodes();
    expect(codes.size).toBeGreaterThan(30);
    const rows = new Map([...catalogue.matchAll(/^\| (\d{3}) \| (.+?) \| (.+) \|$/gm)].flatMap((m) => [...m[2]!.matchAll(/`([a-z_]+)`/g)].map((c) => [c[1]!, m[3]!] as const)));
    const missing = [...codes].filter((code) => !rows.has(code)).sort();
    expect(missing, 'add a row to the README error catalogue').toEqual([]);
    for (const [code, meaning] of rows) expect(meaning.trim().length, code).toBeGreaterThan(10);
  });

  it("gives every code an anchor, so each error's docUrl (README.md#error-<code>) opens its own row", () => {
    const [file, fragment] = docUrlFor(DEFAULT_DOCS_BASE_URL, 'parameter_invalid').split('#');
    expect(file).toBe('README.md');
    expect(fragment).toBe('error-parameter_invalid');
    const anchors = [...readme.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]!);
    expect(new Set(anchors).size, 'anchors are unique').toBe(anchors.length);
    const rows = [...catalogue.matchAll(/^\| \d{3} \| (.+?) \| .+ \|$/gm)].map((m) => m[1]!);
    for (const code of answeredCodes()) {
      const row = rows.find((cell) => cell.includes(`\`${code}\``));
      expect(row, code).toBeDefined();
      expect(row, code).toContain(`<a id="${docUrlFor(DEFAULT_DOCS_BASE_URL, code).split('#')[1]}"></a>`);
    }
  });
});
