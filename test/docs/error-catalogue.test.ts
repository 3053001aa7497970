import { describe, expect, it } from 'vitest';
import { DEFAULT_DOCS_BASE_URL, docUrlFor } from '../../shared/http/request-id.ts';
import { reasonPhrase } from '../../shared/errors.ts';
import { answeredCodes, catalogueEntries, catalogueSection } from './error-codes.ts';

describe('the error catalogue (docs/errors.md)', () => {
  it('has an entry for every error code the API answers with', () => {
    const codes = answeredCodes();
    expect(codes.size).toBeGreaterThan(30);
    const entries = new Set(catalogueEntries().map((entry) => entry.code));
    const missing = [...codes].filter((code) => !entries.has(code)).sort();
    expect(missing, 'add an entry to the error catalogue in docs/errors.md').toEqual([]);
  });

  it("opens each entry with a heading anchored where the code's docUrl (<docs>/errors#error-<code>) points, once", () => {
    const url = new URL(docUrlFor(DEFAULT_DOCS_BASE_URL, 'parameter_invalid'));
    expect(url.pathname).toBe('/docs/errors');
    expect(url.hash).toBe('#error-parameter_invalid');
    const entries = catalogueEntries();
    for (const { code, anchor } of entries) expect(anchor, code).toBe(new URL(docUrlFor(DEFAULT_DOCS_BASE_URL, code)).hash.slice(1));
    expect(new Set(entries.map((entry) => entry.code)).size, 'one entry per code').toBe(entries.length);
    // No code is left as a table row: a row's code column wrapped mid-identifier on a phone.
    expect(catalogueSection()).not.toMatch(/^\|/m);
  });

  it('says in each entry what happened, why and how to fix it, with an example answer of that code in the error shape', () => {
    const entries = catalogueEntries();
    expect(entries.length).toBeGreaterThan(30);
    for (const { code, body } of entries) {
      const status = /^\*\*(\d{3}) ([A-Za-z ]+)\*\*\. (.{10,})$/m.exec(body);
      expect(status, `${code}: "**<status> <reason>**. <what happened>"`).not.toBeNull();
      expect(status![2], code).toBe(reasonPhrase[Number(status![1])]);
      expect(body, code).toMatch(/^- \*\*Why\*\*: .{10,}$/m);
      expect(body, code).toMatch(/^- \*\*How to fix\*\*: .{5,}$/m);
      const example = /```json\n([\s\S]+?)\n```/.exec(body);
      expect(example, `${code}: an example answer`).not.toBeNull();
      const answer = JSON.parse(example![1]!) as Record<string, unknown>;
      expect(answer, code).toMatchObject({ statusCode: Number(status![1]), error: status![2], code, message: expect.any(String), requestId: expect.stringMatching(/^req_/) });
      expect(answer.docUrl, code).toBe(docUrlFor(DEFAULT_DOCS_BASE_URL, code));
    }
  });
});
