import { describe, expect, it } from 'vitest';
import { itemMapper } from '../../shared/store/item-mapper.ts';

interface Widget {
  id: string;
  ownerId: string;
  createdAt: string;
  status: 'on' | 'off';
  version?: number;
}

const widgets = itemMapper({
  type: 'widget',
  keys: (w: Widget) => ({ pk: `WIDGET#${w.id}`, sk: 'WIDGET', gsi1pk: `OWNER#${w.ownerId}#WIDGETS`, gsi1sk: `${w.createdAt}#${w.id}` }),
  defaults: { version: 1 },
});

const widget: Widget = { id: 'w1', ownerId: 'o1', createdAt: '2026-01-01T00:00:00.000Z', status: 'on', version: 3 };

describe('itemMapper', () => {
  it('writes the declared keys, the type and the fields', () => {
    expect(widgets.toItem(widget)).toEqual({ pk: 'WIDGET#w1', sk: 'WIDGET', gsi1pk: 'OWNER#o1#WIDGETS', gsi1sk: '2026-01-01T00:00:00.000Z#w1', type: 'widget', ...widget });
  });

  it('reads back the entity alone, without its keys or type', () => {
    expect(widgets.fromItem(widgets.toItem(widget))).toEqual(widget);
  });

  it('fills the defaults an older item lacks, and keeps a stored value over a default', () => {
    const { version: _, ...older } = widget;
    expect(widgets.fromItem(widgets.toItem(older)).version).toBe(1);
    expect(widgets.fromItem(widgets.toItem(widget)).version).toBe(3);
  });

  it('refuses an item of another kind, or with no type', () => {
    expect(() => widgets.fromItem({ ...widgets.toItem(widget), type: 'gadget' })).toThrow('Not a widget item: its type is gadget.');
    expect(() => widgets.fromItem({ pk: 'WIDGET#w1', sk: 'WIDGET' })).toThrow('Not a widget item: its type is missing.');
  });
});
