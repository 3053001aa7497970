import { depsFromEnvironment, type Deps } from '../deps.ts';
import type { WorkerId } from '../workers.ts';

export interface WorkerModule<E, R> {
  /** Builds the worker over the given dependencies (the sandbox's, a test's). */
  build(deps: Deps): (event: E) => Promise<R>;
  /** The Lambda entry point: builds over the container's environment on first call. */
  handler: (event: E) => Promise<R>;
}

/**
 * A background worker of the manifest (shared/workers.ts): the same two exports as an API handler, so the stack,
 * the sandbox and tests use it the same way.
 *
 * @example
 * export const { build, handler } = defineWorker('expireSessions', async (event: SQSEvent, deps) => ({ batchItemFailures: [] }));
 */
export function defineWorker<E, R>(workerId: WorkerId, impl: (event: E, deps: Deps) => Promise<R>): WorkerModule<E, R> {
  let lambda: ((event: E) => Promise<R>) | undefined;
  const build = (deps: Deps) => {
    const logger = deps.logger.createChild({ persistentKeys: { worker: workerId } });
    const scoped = { ...deps, logger };
    return (event: E) => impl(event, scoped);
  };
  return {
    build,
    handler: (event) => {
      lambda ??= build(depsFromEnvironment());
      return lambda(event);
    },
  };
}
