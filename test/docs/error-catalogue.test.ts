import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DOCS_BASE_URL, docUrlFor } from '../../shared/http/request-id.ts';
import { answeredCodes, catalogueRows, ERRORS_PAGE } from './error-codes.ts';

describe('the error catalogue (docs/errors.md)', () => {
  it('lists every error code the API answers with, with its status, meaning and fix', () => {
    const codes = answeredCodes();
    expect(codes.size).toBeGreaterThan(30);
    const rows = new Map(catalogueRows().flatMap((row) => [...row.cell.matchAll(/`([a-z_]+)`/g)].map((c) => [c[1]!, row.meaning] as const)));
    const missing = [...codes].filter((code) => !rows.has(code)).sort();
    expect(missing, 'add a row to the error catalogue in docs/errors.md').toEqual([]);
    for (const [code, meaning] of rows) expect(meaning.trim().length, code).toBeGreaterThan(10);
  });

  it("gives every code an anchor, so each error's docUrl (<docs>/errors#error-<code>) opens its own row", () => {
    const url = new URL(docUrlFor(DEFAULT_DOCS_BASE_URL, 'parameter_invalid'));
    expect(url.pathname).toBe('/docs/errors');
    expect(url.hash).toBe('#error-parameter_invalid');
    const page = readFileSync(ERRORS_PAGE, 'utf8');
    const anchors = [...page.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]!);
    expect(new Set(anchors).size, 'anchors are unique').toBe(anchors.length);
    const cells = catalogueRows().map((row) => row.cell);
    for (const code of answeredCodes()) {
      const cell = cells.find((c) => c.includes(`\`${code}\``));
      expect(cell, code).toBeDefined();
      expect(cell, code).toContain(`<a id="${new URL(docUrlFor(DEFAULT_DOCS_BASE_URL, code)).hash.slice(1)}"></a>`);
    }
  });
});
