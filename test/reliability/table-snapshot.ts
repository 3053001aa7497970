import { itemsOfMerchant } from '../support/dynamo.ts';

/**
 * What a merchant owns in the table, as comparable text. Each snapshot scans the whole table: the files that take one
 * per case run their sandbox on a table of their own (startTestSandbox's `tableName`). Rate-window counters are left out: every request counts,
 * refused or not (docs/idempotency.md rule 11), so they change on purpose.
 */
export async function merchantSnapshot(tableName: string, merchantId: string): Promise<Map<string, string>> {
  const items = await itemsOfMerchant(merchantId, tableName);
  return new Map(items.filter((i) => !String(i.pk).startsWith('RATE#')).map((i) => [`${String(i.pk)}|${String(i.sk)}`, JSON.stringify(i)]));
}

/** Keys added, removed or changed between two snapshots. */
export function snapshotDiff(before: Map<string, string>, after: Map<string, string>): string[] {
  const changed: string[] = [];
  for (const [key, value] of after) if (before.get(key) !== value) changed.push(before.has(key) ? `changed ${key}` : `added ${key}`);
  for (const key of before.keys()) if (!after.has(key)) changed.push(`removed ${key}`);
  return changed;
}
