/**
 * The overview's chart, drawn as inline SVG (no chart library, nothing from a CDN): one bar per day of approved
 * amount, a labelled axis, and the numbers in a table under a disclosure for screen readers and exact reading.
 */
import { h, svg } from './dom.ts';
import { formatMoney, formatMoneyShort } from '../../shared/domain/money-format.ts';
import { formatDayMonth } from './format.ts';
import { locale, t } from './i18n.ts';
import type { DailyPoint } from './types.ts';
import { table } from './ui.ts';

/** A phone draws on a narrower canvas, so the axis text keeps its size instead of shrinking with the picture. */
const narrow = () => matchMedia('(max-width: 40rem)').matches;
const HEIGHT = 220;
const PAD = { top: 12, right: 8, bottom: 28, left: 64 };

/** A round axis top: 1, 2 or 5 times a power of ten, at least the largest value. */
function niceMax(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return ([1, 2, 5, 10].map((m) => m * power).find((m) => m >= value) ?? 10 * power);
}

export function dailyChart(currency: string, daily: DailyPoint[]): HTMLElement {
  const width = narrow() ? 360 : 640;
  const title = t().overview.chartTitle(currency);
  const max = niceMax(Math.max(0, ...daily.map((d) => d.approvedAmountMinor)));
  const plotWidth = width - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotWidth / Math.max(1, daily.length);
  const y = (value: number) => PAD.top + plotHeight - (value / max) * plotHeight;

  const total = daily.reduce((sum, d) => sum + d.approvedAmountMinor, 0);
  // Nothing approved: one baseline at zero, not three lines all labelled 0.
  const gridlines = (total > 0 ? [0, 0.5, 1] : [0]).map((fraction) =>
    svg('g', {}, svg('line', { x1: PAD.left, x2: width - PAD.right, y1: y(max * fraction), y2: y(max * fraction), class: 'grid' }), svg('text', { x: PAD.left - 6, y: y(max * fraction) + 4, 'text-anchor': 'end', class: 'axis' }, formatMoneyShort(max * fraction, currency, locale()))),
  );
  const bars = daily.map((day, index) => {
    const top = y(day.approvedAmountMinor);
    return svg('rect', { x: PAD.left + index * slot + slot * 0.15, y: top, width: slot * 0.7, height: Math.max(0, PAD.top + plotHeight - top), class: 'bar', rx: 2 }, svg('title', {}, `${formatDayMonth(day.date)}: ${formatMoney(day.approvedAmountMinor, currency, locale())}`));
  });
  // First, middle and last day: enough to place the bars in time without crowding a phone's width.
  const labelled = [...new Set([0, Math.floor((daily.length - 1) / 2), daily.length - 1])].filter((i) => i >= 0 && daily[i]);
  // The first label starts at its bar's left edge and the last ends at its right edge, so neither runs off the picture.
  const dayLabels = labelled.map((i) => {
    const [x, anchor] = i === 0 ? [PAD.left + i * slot, 'start'] : i === daily.length - 1 ? [PAD.left + (i + 1) * slot, 'end'] : [PAD.left + i * slot + slot / 2, 'middle'];
    return svg('text', { x, y: HEIGHT - 8, 'text-anchor': anchor, class: 'axis' }, formatDayMonth(daily[i]!.date));
  });

  const picture = svg('svg', { viewBox: `0 0 ${width} ${HEIGHT}`, role: 'img', 'aria-label': `${title}: ${formatMoney(total, currency, locale())}`, class: 'chart' }, ...gridlines, ...bars, ...dayLabels);
  const rows = daily.map((d) => [formatDayMonth(d.date), formatMoney(d.approvedAmountMinor, currency, locale()), d.approved, d.declined, d.failed]);
  return h(
    'figure',
    { class: 'chart-figure' },
    h('figcaption', {}, title),
    picture,
    h('details', {}, h('summary', {}, t().overview.chartData), table(title, [t().overview.date, t().overview.approvedAmount, t().overview.approved, t().overview.declined, t().overview.failed], rows, { captionHidden: true })),
  );
}
