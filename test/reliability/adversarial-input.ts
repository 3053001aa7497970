/**
 * Generators of hostile HTTP input for the manifest fuzz. Each one returns something a route must refuse; the
 * noise generators (query, headers) are mixed into every case without making it valid.
 */
import fc from 'fast-check';

/** Path parameter values that no route may accept: wrong prefixes, broken escapes, traversal, huge, unicode tricks. */
export const hostilePathValue: fc.Arbitrary<{ value: string; raw: boolean }> = fc.oneof(
  fc.string({ minLength: 1, maxLength: 80, unit: 'binary' }).map((value) => ({ value: `x${value}`, raw: false })),
  fc.constantFrom('%E0%A4%A', '%', '%ZZ', '%00', '%C0%AF', '%ED%A0%80', '..%2F..%2Fetc', 'cs_%0A', 'cs_%E2%80%AE', 'cs_abc%3Bdrop').map((value) => ({ value, raw: true })),
  fc.constantFrom('cs_', 'txn_', 'we_', 'wd_', 'tok_svc_', 'cs_' + 'a'.repeat(65), 'CS_abc', 'cs_abc\u202Egpj', 'cs_abc\u0000', 'cs_ąbc', 'null', 'undefined', '[object Object]', '{"$ne":null}').map((value) => ({ value, raw: false })),
  fc.string({ minLength: 1000, maxLength: 3000 }).map((value) => ({ value: `cs_${value}`, raw: false })),
);

/** Query noise: unknown names, repeated names, hostile values for the names lists use. */
export const hostileQuery: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom('page', 'pageSize', 'status', 'from', 'to', 'endpointId', 'sessionReference', '__proto__', 'constructor'), fc.string({ maxLength: 20 })),
      fc.oneof(fc.constantFrom('-1', '0', '1e309', 'NaN', '1.5', '99999999999999999999', '', '<script>', "' OR 1=1", '%', '[]', '{}'), fc.string({ maxLength: 300, unit: 'binary' })),
    ),
    { maxLength: 6 },
  )
  .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k.replace(/[\uD800-\uDFFF]/g, ''))}=${encodeURIComponent(v.replace(/[\uD800-\uDFFF]/g, ''))}`).join('&'));

/** Header noise that must change nothing: method overrides, forwarded addresses, odd accepts. Values are latin-1 (fetch refuses others). */
export const noiseHeaders: fc.Arbitrary<Record<string, string>> = fc.record(
  {
    'x-http-method-override': fc.constantFrom('DELETE', 'PATCH', 'GET'),
    'x-forwarded-for': fc.constantFrom('127.0.0.1', '169.254.169.254', '::1'),
    accept: fc.constantFrom('text/html', '*/*', 'application/xml', ''),
    'x-fuzz': fc.string({ maxLength: 200 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')),
  },
  { requiredKeys: [] },
);

const deepNest = (depth: number, open: string, close: string, core = '1') => open.repeat(depth) + core + close.repeat(depth);

/** A JSON-ish body that fails the route's body schema or its parser, as bytes, with the content type to send. */
export function hostileBody(template: Record<string, unknown>): fc.Arbitrary<{ label: string; body: Uint8Array | string; contentType: string | null }> {
  const json = (label: string, value: unknown) => ({ label, body: JSON.stringify(value), contentType: 'application/json' });
  return fc.oneof(
    // Not an object at all.
    fc.oneof(fc.constant(null), fc.integer(), fc.string(), fc.array(fc.jsonValue(), { maxLength: 5 }), fc.boolean()).map((v) => json('not-an-object', v)),
    // The template with one field turned into a wrong type, plus an unknown field (every body schema is strict).
    fc.tuple(fc.constantFrom(...Object.keys(template)), fc.jsonValue({ maxDepth: 3 }), fc.string({ minLength: 1, maxLength: 20 })).map(([field, wrong, extra]) =>
      json('wrong-type-and-extra', { ...template, [field]: wrong, [`zz_${extra}`]: true }),
    ),
    // Missing every field, or a field of huge text.
    fc.constant(json('unknown-field-only', { zz_unknown: 1 })),
    fc.constantFrom(...Object.keys(template)).map((field) => json('huge-string', { ...template, [field]: 'A'.repeat(60_000), zz_extra: 1 })),
    // Deep nesting, within and beyond the body limit.
    fc.constantFrom(100, 5_000, 30_000).map((depth) => ({ label: `deep-${depth}`, body: deepNest(depth, '[', ']'), contentType: 'application/json' })),
    fc.constantFrom(50, 2_000).map((depth) => ({ label: `deep-object-${depth}`, body: `{"zz":${deepNest(depth, '{"a":', '}')}}`, contentType: 'application/json' })),
    // Malformed JSON.
    fc
      .constantFrom('{', '{"a":1,}', "{'a':1}", '{"a":NaN}', '{"a":1} trailing', '\uFEFF{"a":1}', '/* c */{}', '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"x":1}}}', 'undefined', '', '\u0000')
      .map((body) => ({ label: 'malformed-json', body, contentType: 'application/json' })),
    // Invalid UTF-8 inside a string value, and a body that is not text at all.
    fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => ({
      label: 'invalid-utf8',
      body: Buffer.concat([Buffer.from(`{"zz_bytes":"`), Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0xed, 0xa0, 0x80, 0xf8]), Buffer.from(bytes), Buffer.from('"}')]),
      contentType: 'application/json',
    })),
    // A valid body under a content type the API does not speak.
    fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/json-patch', 'text/json', null).map((contentType) => ({
      label: `content-type:${contentType ?? 'none'}`,
      body: JSON.stringify(template),
      contentType,
    })),
    // Over the 64 KiB body limit.
    fc.constant({ label: 'oversized', body: JSON.stringify({ ...template, zz: 'x'.repeat(70_000) }), contentType: 'application/json' }),
  );
}

/** Idempotency-Key values the API must refuse: empty-ish, spaces, too long, non-ASCII. */
export const hostileIdempotencyKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('a b', 'x'.repeat(256), 'clé', 'key\u00a0', 'k\u00ff\u00fe'),
  fc.string({ minLength: 256, maxLength: 400 }).map((s) => s.replace(/[^\x21-\x7e]/g, 'a')),
);
