const inFlight = new WeakMap<object, Map<string, Promise<unknown>>>();

/**
 * `read()`, unless a read of the same `key` on the same `source` is in progress: then its answer. Nothing is kept
 * once a read settles, so the next call reads afresh. For the records of one batch that need the same item at the
 * same time: one round trip instead of one per record, and each record sees what a read of its own would have seen,
 * since the batch's reads all start after its records were written.
 *
 * @example
 * const endpoints = await sharedRead(deps.webhookEndpoints, `${merchantId}#${mode}`, () => deps.webhookEndpoints.list(merchantId, mode));
 */
export function sharedRead<V>(source: object, key: string, read: () => Promise<V>): Promise<V> {
  const reads = inFlight.get(source) ?? new Map<string, Promise<unknown>>();
  inFlight.set(source, reads);
  const pending = reads.get(key) as Promise<V> | undefined;
  if (pending) return pending;
  const started = read().finally(() => reads.delete(key));
  reads.set(key, started);
  return started;
}
