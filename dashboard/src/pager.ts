/**
 * "Previous" and "next" for a list paged by an opaque cursor that only goes forward (payments, audit log): the cursor
 * lives in the URL, and the cursors of the pages before it are remembered per list and search, so "previous" walks
 * back through them.
 */
import { h } from './dom.ts';
import { t } from './i18n.ts';
import { navigate } from './router.ts';

const earlierCursors = new Map<string, string[]>();

/**
 * The pager of the page at `cursor` (undefined: the first), or null when there is no other page. `listKey` names the
 * list and its search; `hrefAt` is the URL of the page at a cursor.
 */
export function cursorPager(label: string, listKey: string, cursor: string | undefined, nextCursor: string | null, hrefAt: (cursor: string | undefined) => string): HTMLElement | null {
  const earlier = earlierCursors.get(listKey) ?? [];
  const pager = h('nav', { class: 'pager', 'aria-label': label });
  if (cursor) {
    const previous = h('button', { type: 'button', class: 'secondary' }, t().common.previous);
    previous.addEventListener('click', () => {
      const before = earlier.pop();
      navigate(hrefAt(before || undefined));
    });
    pager.append(previous);
  }
  if (nextCursor) {
    const next = h('button', { type: 'button', class: 'secondary' }, t().common.next);
    next.addEventListener('click', () => {
      earlierCursors.set(listKey, [...earlier, cursor ?? '']);
      navigate(hrefAt(nextCursor));
    });
    pager.append(next);
  }
  return pager.childElementCount ? pager : null;
}
