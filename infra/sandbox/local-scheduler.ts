import { DeleteCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Clock } from '../../shared/clock.ts';
import type { OneTimeScheduler, ScheduledPayload } from '../../shared/background/one-time-scheduler.ts';
import { ConditionFailedError, conditional, itemDoesNotExist } from '../../shared/store/conditions.ts';
import { keys } from '../../shared/store/keys.ts';
import { itemsOf, queryAll } from '../../shared/store/query-page.ts';

export interface DueSchedule {
  name: string;
  payload: ScheduledPayload;
}

/**
 * The sandbox's EventBridge Scheduler: schedules are items in the table, so pending ones survive a restart and are
 * found again by recover(); they fall due on the sandbox clock, so moving the clock fires them. `owns` keeps
 * several sandboxes on one table (the test run) to their own merchants' timers.
 */
export class LocalScheduler implements OneTimeScheduler {
  private readonly pending = new Map<string, { at: number; payload: ScheduledPayload }>();
  private changed = () => {};

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
    private readonly owns: (merchantId: string) => boolean,
  ) {}

  async schedule(name: string, at: number, payload: ScheduledPayload): Promise<void> {
    const fireAt = new Date(at).toISOString();
    try {
      await conditional(() =>
        this.db.send(
          new PutCommand({
            TableName: this.tableName,
            Item: { ...keys.localSchedule(name), ...keys.localSchedules(fireAt, name), type: 'local_schedule', name, fireAt, payload },
            ConditionExpression: itemDoesNotExist,
          }),
        ),
      );
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
    }
    if (!this.owns(payload.merchantId)) return;
    this.pending.set(name, { at, payload });
    this.changed();
  }

  /** Called when a schedule of this sandbox is added, so the runner sets its timer for the new earliest one. */
  watch(listener: () => void): void {
    this.changed = listener;
  }

  /** When the earliest pending schedule falls due, on the sandbox clock; none when nothing is pending. */
  nextDueAt(): number | undefined {
    let next: number | undefined;
    for (const { at } of this.pending.values()) if (next === undefined || at < next) next = at;
    return next;
  }

  async cancel(name: string): Promise<void> {
    this.pending.delete(name);
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: keys.localSchedule(name) }));
  }

  /** Loads the pending schedules of this sandbox's merchants from the table. */
  async recover(): Promise<number> {
    const entries = await queryAll(this.db, this.tableName, { index: 'gsi1', partition: keys.localSchedules('', '').gsi1pk, newestFirst: false });
    for (const item of await itemsOf(this.db, this.tableName, entries)) {
      const payload = item.payload as ScheduledPayload | undefined;
      const name = (item.pk as string).slice('LOCAL_SCHEDULE#'.length);
      if (payload && this.owns(payload.merchantId)) this.pending.set(name, { at: Date.parse(item.fireAt as string), payload });
    }
    return this.pending.size;
  }

  /** Schedules whose time has come on the sandbox clock, earliest first. */
  due(): DueSchedule[] {
    const now = this.clock.now();
    return [...this.pending.entries()]
      .filter(([, s]) => s.at <= now)
      .sort(([, a], [, b]) => a.at - b.at)
      .map(([name, s]) => ({ name, payload: s.payload }));
  }

  /**
   * A fired schedule leaves the timers but keeps its item until the planner deletes it as its session closes. In AWS
   * it deletes itself (ActionAfterCompletion DELETE) because SQS then holds the hand-over message durably; the
   * sandbox's queue is in memory, so a restart before the expiry fires it again (the expiry is idempotent).
   */
  async fired(name: string): Promise<void> {
    this.pending.delete(name);
  }
}
