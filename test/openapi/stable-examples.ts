import { createHash } from 'node:crypto';

/** Public ids the service makes (cs_, txn_, tok_svc_, we_, wd_, evt_, ref_, mer_, whsec_...): a prefix and a long random token. */
const ID = /\b((?:tok_svc|[a-z]{2,5}))_([0-9A-Za-z]{16,})\b/g;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g;
/** Times the service writes (always with milliseconds); a time typed into a query (…T00:00:00Z) stays as typed. */
/** The local receiver's port changes every run; an example shows the usual local one. */
const LOOPBACK = /\bhttp:\/\/127\.0\.0\.1:\d+/g;
const TIMESTAMP = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z\b/g;
/** The moment the first time in the examples is moved to: the same at every recording. */
const EXAMPLE_EPOCH = Date.parse('2026-01-15T10:00:00.000Z');
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A token of the same length that depends only on the order in which ids first appear. */
function stableToken(index: number, length: number): string {
  const digest = createHash('sha256').update(`svc-example-${index}`).digest();
  return Array.from({ length }, (_, i) => BASE62[digest[i % digest.length]! % 62]).join('');
}

function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, map));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, map)]));
  return value;
}

/**
 * Recorded exchanges with their ids replaced by stable look-alikes (the same id stays the same id everywhere, so
 * the examples still show which object is which) and their times moved as one block to a fixed day (durations and
 * order kept). Sample references (txn_sample...) are already stable and stay.
 */
export function stabilise<T>(exchanges: T): T {
  const ids = new Map<string, string>();
  let first: number | undefined;
  return mapStrings(exchanges, (text) =>
    text
      .replace(LOOPBACK, 'http://127.0.0.1:3000')
      .replace(ID, (whole, prefix: string, token: string) => {
        if (token.startsWith('sample')) return whole;
        if (!ids.has(whole)) ids.set(whole, `${prefix}_${stableToken(ids.size, token.length)}`);
        return ids.get(whole)!;
      })
      .replace(UUID, (uuid) => {
        if (!ids.has(uuid)) {
          const hex = createHash('sha256').update(`svc-example-uuid-${ids.size}`).digest('hex');
          ids.set(uuid, `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`);
        }
        return ids.get(uuid)!;
      })
      .replace(TIMESTAMP, (iso) => {
        const at = Date.parse(iso);
        first ??= at;
        return new Date(EXAMPLE_EPOCH + (at - first)).toISOString();
      }),
  ) as T;
}

/** The same value with every id and time blanked: two runs of the scenario agree on this and nothing finer. */
export function blankIdsAndTimes<T>(value: T): T {
  return mapStrings(value, (text) => text.replace(LOOPBACK, 'http://127.0.0.1:3000').replace(ID, '$1_…').replace(UUID, 'uuid').replace(TIMESTAMP, 'time')) as T;
}
