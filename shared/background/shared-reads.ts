const inFlight = new WeakMap<object, Map<string, Promise<unknown>>>();

/**
 * `read()`, unless a read of the same `key` for the same `batch` (one invocation's event) is in progress: then its
 * answer. Nothing is kept once a read settles, so the next call reads afresh. For the records of one batch that need
 * the same item at the same time: one round trip instead of one per record. Each record still sees what a read of its
 * own would have seen, since all of a batch's records were written before the batch was read; a read is never shared
 * with another batch, which may hold records written after it started.
 *
 * @example
 * const endpoints = await sharedRead(batch, `${merchantId}#${mode}`, () => deps.webhookEndpoints.list(merchantId, mode));
 */
export function sharedRead<V>(batch: object, key: string, read: () => Promise<V>): Promise<V> {
  const reads = inFlight.get(batch) ?? new Map<string, Promise<unknown>>();
  inFlight.set(batch, reads);
  const pending = reads.get(key) as Promise<V> | undefined;
  if (pending) return pending;
  const started = read().finally(() => reads.delete(key));
  reads.set(key, started);
  return started;
}
