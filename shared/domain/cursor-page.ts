/**
 * The envelope of the lists the spec leaves open (docs/api.md, "Lists"): `{ data, hasMore, nextCursor }`, asked for with
 * `limit` and `startingAfter` (the id of the last item seen; `nextCursor` is that id when there is more). Pure.
 */

export interface CursorPage<T> {
  data: T[];
  hasMore: boolean;
  /** The id to send as startingAfter for the next page; null on the last page. */
  nextCursor: string | null;
}

/**
 * A page read from storage, in the envelope.
 *
 * @example
 * cursorPage([{ id: 'wd_1' }, { id: 'wd_2' }], true) // { data: [...], hasMore: true, nextCursor: 'wd_2' }
 */
export const cursorPage = <T extends { id: string }>(items: T[], hasMore: boolean): CursorPage<T> => ({
  data: items,
  hasMore,
  nextCursor: hasMore && items.length > 0 ? items.at(-1)!.id : null,
});

/**
 * A page of a list held whole in memory (webhook endpoints: at most 16). An unknown startingAfter starts from the
 * beginning, as the delivery log does.
 */
export function pageAfter<T extends { id: string }>(all: T[], { limit, startingAfter }: { limit: number; startingAfter?: string }): CursorPage<T> {
  const start = startingAfter ? all.findIndex((item) => item.id === startingAfter) + 1 : 0;
  return cursorPage(all.slice(start, start + limit), start + limit < all.length);
}
