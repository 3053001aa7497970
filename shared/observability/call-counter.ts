/**
 * Counts AWS SDK v3 calls per service and command (DynamoDB GetItem, KMS Decrypt, SQS SendMessage, ...), so a
 * benchmark or a test can tell how many round trips an operation makes. Works on any v3 client, including a
 * DynamoDB document client (it shares its client's middleware stack).
 *
 * @example
 * const counter = new CallCounter({ measureCapacity: true });
 * counter.attach(deps.db);
 * const before = counter.snapshot();
 * await counter.within('request', () => handler(event, context));
 * counter.since(before, 'request'); // [{ scope: 'request', service: 'DynamoDB', command: 'GetItem', calls: 1, capacityUnits: 0.5 }, ...]
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** The one part of an SDK v3 client the counter needs; structural, so no @smithy type leaks in. */
export interface InstrumentableClient {
  middlewareStack: {
    add(
      middleware: (next: (args: any) => Promise<any>, context: { clientName?: string; commandName?: string }) => (args: any) => Promise<any>,
      options: { step: 'initialize'; name: string; override: boolean },
    ): void;
  };
}

/** Calls made outside any `within` scope: background work, set-up. */
export const UNSCOPED = 'unscoped';

export interface CallCount {
  /** The `within` scope the call was made in, or UNSCOPED. */
  scope: string;
  /** Client name without "Client": DynamoDB, KMS, SQS, Scheduler; Lambda for invocations recorded by `record`. */
  service: string;
  /** Command name without "Command": GetItem, TransactWriteItems, Decrypt. */
  command: string;
  /** Calls sent, successful or not; a call the handler retries is counted again, the SDK's own retries are not. */
  calls: number;
  /**
   * DynamoDB capacity units the table reported, when measureCapacity is on. Read or write follows from the
   * command; DynamoDB Local does not double transactional units as AWS bills them, so a cost model must.
   */
  capacityUnits: number;
  /**
   * DynamoDB: items per call on average, what the call's latency grows with: a transaction's items, a batch's
   * keys, the entries a Query or Scan read (ScannedCount); 1 for single-item calls. Absent for other services.
   */
  itemsPerCall?: number;
}

/** A count as kept: the items of all calls summed, from which `itemsPerCall` is derived. */
type Counted = CallCount & { items: number };

export type CallSnapshot = ReadonlyMap<string, Readonly<Counted>>;

type ConsumedCapacity = { CapacityUnits?: number };

/** Items a DynamoDB call touched, from its input (transactions, batches) or its output (Query, Scan). */
function itemsOf(input: Record<string, unknown>, output: { ScannedCount?: number } | undefined): number {
  if (Array.isArray(input.TransactItems)) return input.TransactItems.length;
  if (input.RequestItems && typeof input.RequestItems === 'object') {
    // BatchGetItem: { table: { Keys } }; BatchWriteItem: { table: [requests] }.
    return Object.values(input.RequestItems as Record<string, { Keys?: unknown[] } | unknown[]>).reduce<number>(
      (n, table) => n + (Array.isArray(table) ? table.length : (table.Keys?.length ?? 0)),
      0,
    );
  }
  return output?.ScannedCount ?? 1;
}

export class CallCounter {
  private readonly counts = new Map<string, Counted>();
  private readonly scopes = new AsyncLocalStorage<string>();
  /** Set inside `uncounted` work (a stand-in's own storage): its calls are not AWS calls. */
  private readonly inStandIn = new AsyncLocalStorage<true>();

  /**
   * @param options.measureCapacity asks DynamoDB for ReturnConsumedCapacity=TOTAL on every call, so that cost
   * can be computed from real units; it changes nothing else in the request.
   */
  constructor(private readonly options: { measureCapacity?: boolean } = {}) {}

  attach(client: InstrumentableClient): void {
    client.middlewareStack.add(
      (next, context) => async (args: { input: Record<string, unknown> }) => {
        if (this.inStandIn.getStore()) return next(args);
        const service = (context.clientName ?? 'Unknown').replace(/Client$/, '');
        const entry = this.entry(this.scopes.getStore() ?? UNSCOPED, service, (context.commandName ?? 'Unknown').replace(/Command$/, ''));
        entry.calls += 1;
        if (this.options.measureCapacity && service === 'DynamoDB') args.input.ReturnConsumedCapacity ??= 'TOTAL';
        const result = (await next(args)) as { output?: { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[]; ScannedCount?: number } };
        if (service === 'DynamoDB') entry.items += itemsOf(args.input, result.output);
        const consumed = result.output?.ConsumedCapacity;
        for (const c of consumed === undefined ? [] : Array.isArray(consumed) ? consumed : [consumed]) entry.capacityUnits += c.CapacityUnits ?? 0;
        return result;
      },
      { step: 'initialize', name: 'callCounter', override: true },
    );
  }

  /** Runs `work` so that every call it makes, however deep in its async chain, is counted under `scope`. */
  within<T>(scope: string, work: () => T): T {
    return this.scopes.run(scope, work);
  }

  /** Counts `calls` of an AWS call that no SDK client makes here (a Lambda invocation), in the current scope. */
  record(service: string, command: string, calls = 1): void {
    if (!this.inStandIn.getStore()) this.entry(this.scopes.getStore() ?? UNSCOPED, service, command).calls += calls;
  }

  /**
   * Runs `work`, a local stand-in of one AWS call (an in-memory queue for SQS SendMessage), and counts it as that
   * call in the current scope; see `uncounted` for the calls the stand-in makes itself.
   */
  standIn<T>(service: string, command: string, work: () => Promise<T>): Promise<T> {
    this.record(service, command);
    return this.uncounted(work);
  }

  /**
   * Runs `work` without counting its SDK calls or the stand-ins it calls: local machinery (a stand-in's own
   * storage, the sandbox's stream checkpoints) that AWS would not see as calls.
   */
  uncounted<T>(work: () => Promise<T>): Promise<T> {
    return this.inStandIn.getStore() ? work() : this.inStandIn.run(true, work);
  }

  snapshot(): CallSnapshot {
    return new Map([...this.counts].map(([k, v]) => [k, { ...v }]));
  }

  /** What was counted after `before` was taken, in one scope or all; commands with no new call are left out. */
  since(before: CallSnapshot, scope?: string): CallCount[] {
    const result: CallCount[] = [];
    for (const [key, now] of this.counts) {
      if (scope !== undefined && now.scope !== scope) continue;
      const then = before.get(key);
      const calls = now.calls - (then?.calls ?? 0);
      if (calls === 0) continue;
      const items = now.items - (then?.items ?? 0);
      result.push({
        scope: now.scope,
        service: now.service,
        command: now.command,
        calls,
        capacityUnits: now.capacityUnits - (then?.capacityUnits ?? 0),
        ...(now.service === 'DynamoDB' ? { itemsPerCall: items / calls } : {}),
      });
    }
    return result;
  }

  private entry(scope: string, service: string, command: string): Counted {
    const key = `${scope}|${service}:${command}`;
    let entry = this.counts.get(key);
    if (!entry) {
      entry = { scope, service, command, calls: 0, capacityUnits: 0, items: 0 };
      this.counts.set(key, entry);
    }
    return entry;
  }
}
