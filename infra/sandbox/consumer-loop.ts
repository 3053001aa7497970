import { AsyncLocalStorage } from 'node:async_hooks';
import type { Clock } from '../../shared/clock.ts';

export interface RunOutcome {
  /** It handled something: there may be more, so it runs again at once. */
  worked: boolean;
  /** Real milliseconds after which it wants another look even if nothing wakes it (a stream's next poll, a retry). */
  againInMs?: number;
}

export interface ConsumerLoopOptions {
  /** One pass over the consumer's source; `draining` when drain() runs it, which does not wait for retry delays. */
  run: (draining: boolean) => Promise<RunOutcome>;
  /** When, on the sandbox clock, the next hidden item falls due (a delayed message, a schedule): a timer is set for it. */
  nextDueAt?: () => number | undefined;
  clock: Clock;
  onError: (error: unknown) => void;
}

/** After a failed run (DynamoDB Local unreachable), the next try: soon enough to resume at once, not a busy loop. */
const ERROR_RETRY_MS = 200;
/** Node.js turns a longer timeout into 1 ms; a far-away due time is looked at again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * One trigger of the sandbox, as a Lambda event source is one in AWS: it runs its consumer as soon as it is woken
 * (a message sent, a record written) or when the next item it knows of falls due, and never two runs at once, so
 * drain() and the background take turns. A wake during a run makes one more run after it.
 */
export class ConsumerLoop {
  /** Runs that handled something, in the background or for drain(): drain() stops once no loop's count moves. */
  productiveRuns = 0;
  private chain: Promise<unknown> = Promise.resolve();
  private queued = false;
  private timer: NodeJS.Timeout | undefined;
  /** Sandbox time the timer is set for: a jump of the clock past it fires at once (see checkClock). */
  private dueAt: number | undefined;
  private stopped = false;
  /** Held by pause(): wakes are kept for resume(), drain() still runs. */
  private paused = false;
  private wokenWhilePaused = false;
  /**
   * The async context the loop was made in. A run stands for an invocation of its own, so it must not run in the
   * context of whoever woke it (a request writing the table, a stand-in sending a message): request-scoped state,
   * such as the benchmark's call counting, would otherwise be charged to the waker.
   */
  private readonly outside = AsyncLocalStorage.snapshot();

  constructor(private readonly options: ConsumerLoopOptions) {}

  /** Something may be there now: run at once, or right after the run in progress. */
  wake(): void {
    if (this.paused) {
      this.wokenWhilePaused = true;
      return;
    }
    if (this.stopped || this.queued) return;
    this.queued = true;
    this.outside(() => this.runInBackground());
  }

  private runInBackground(): void {
    void this.serial(async () => {
      this.queued = false;
      if (this.stopped) return;
      try {
        this.arm(await this.runCounted(false));
      } catch (error) {
        this.options.onError(error);
        // Not at the due time: what failed is most likely still due, and would fail again at once.
        this.armAt(this.options.clock.now() + ERROR_RETRY_MS);
      }
    });
  }

  /** One run for drain(), in turn with the background's; its error goes to the caller. Says whether it worked. */
  async runOnce(): Promise<boolean> {
    const outcome = await this.serial(() => this.runCounted(true));
    this.arm(outcome);
    return outcome.worked;
  }

  /** The sandbox clock moved past the armed due time (POST /__sandbox/clock): run now, not at the old real-time timer. */
  checkClock(): void {
    if (this.dueAt !== undefined && this.options.clock.now() >= this.dueAt) this.wake();
  }

  /** No background runs until resume(); a run in progress finishes. */
  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    if (this.wokenWhilePaused) {
      this.wokenWhilePaused = false;
      this.wake();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.chain;
  }

  private async runCounted(draining: boolean): Promise<RunOutcome> {
    const outcome = await this.options.run(draining);
    if (outcome.worked) this.productiveRuns += 1;
    return outcome;
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.chain.then(work);
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** After a run: again at once if it worked, else at the earliest of the next due item and the run's own request. */
  private arm({ worked, againInMs }: RunOutcome): void {
    if (worked) return this.wake();
    const nextDue = this.options.nextDueAt?.();
    const asked = againInMs === undefined ? undefined : this.options.clock.now() + againInMs;
    const candidates = [asked, nextDue].filter((at): at is number => at !== undefined);
    this.armAt(candidates.length > 0 ? Math.min(...candidates) : undefined);
  }

  /** The one timer, for a moment on the sandbox clock (none: wait for a wake). */
  private armAt(at: number | undefined): void {
    clearTimeout(this.timer);
    this.dueAt = this.stopped ? undefined : at;
    if (this.dueAt === undefined) return;
    this.timer = setTimeout(() => this.wake(), Math.min(MAX_TIMER_MS, Math.max(0, this.dueAt - this.options.clock.now())));
  }
}
