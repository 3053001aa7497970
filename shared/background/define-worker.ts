import { depsFromEnvironment, type DepsOf, type WiringOf } from '../deps.ts';
import { workers, type WorkerId } from '../workers.ts';
import { logUnexpected } from './worker-errors.ts';

/** The deps of a worker of the manifest: the core and the parts its entry declares (shared/function-needs.ts). */
export type WorkerDeps<K extends WorkerId> = DepsOf<(typeof workers)[K]>;

export interface WorkerModule<E, R, D> {
  /** Builds the worker over the given dependencies (the sandbox's, a test's): at least the parts its entry declares. */
  build(deps: D): (event: E) => Promise<R>;
  /** The Lambda entry point: builds over the container's environment on first call. */
  handler: (event: E) => Promise<R>;
}

/**
 * A background worker of the manifest (shared/workers.ts): the same exports as an API handler (build, handler), so
 * the stack, the sandbox and tests use it the same way. Its `deps` has the parts its entry declares, and the last
 * argument passes exactly their factories. An error it throws is logged, then rethrown.
 *
 * @example
 * export const { build, handler } = defineWorker('handOverSessionExpiry', async (payload: ExpirySchedulePayload, deps) => { ... }, {
 *   queues: queuesFromEnvironment,
 * });
 */
export function defineWorker<K extends WorkerId, E, R>(workerId: K, impl: (event: E, deps: WorkerDeps<K>) => Promise<R>, ...[factories]: WiringOf<(typeof workers)[K]>): WorkerModule<E, R, WorkerDeps<K>> {
  let lambda: ((event: E) => Promise<R>) | undefined;
  const build = (deps: WorkerDeps<K>) => {
    const logger = deps.logger.createChild({ persistentKeys: { worker: workerId } });
    const scoped = { ...deps, logger };
    return async (event: E) => {
      try {
        return await impl(event, scoped);
      } catch (error) {
        logUnexpected(logger, error);
        throw error;
      }
    };
  };
  return {
    build,
    handler: (event) => {
      // The factories are exactly those of the entry's part groups (WiringOf), so the deps have the parts WorkerDeps<K> names.
      lambda ??= build(depsFromEnvironment(factories ?? {}) as WorkerDeps<K>);
      return lambda(event);
    },
  };
}
