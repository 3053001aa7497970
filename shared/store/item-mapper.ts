import { secondaryIndexes, tableDefinition } from './table-definition.ts';

/** The key attributes an entity's item may carry: the table's, and those of the indexes that list it (keys.ts). */
export type KeyAttributes = { pk: string; sk: string } & Partial<Record<'gsi1pk' | 'gsi1sk' | 'gsi2pk' | 'gsi2sk', string>>;

/** An entity as stored: its key attributes, its `type` and its own fields. */
export type StoredItem<T extends object, K extends KeyAttributes, N extends string> = K & { type: N } & T;

/** The way between an entity and its item, declared once per entity. */
export interface ItemMapper<T extends object, K extends KeyAttributes, N extends string> {
  readonly type: N;
  toItem(entity: T): StoredItem<T, K, N>;
  /** The entity of an item this mapper wrote; throws on an item of another kind (its `type` differs). */
  fromItem(item: object): T;
}

/** Attributes of an item that are storage, not the entity's: every key of the table and its indexes, and `type`. */
const STORAGE_ATTRIBUTES = [tableDefinition.partitionKey, tableDefinition.sortKey, ...secondaryIndexes.flatMap((index) => [index.partitionKey, index.sortKey]), 'type'];

/**
 * The mapper of one entity from its key declaration: its item is the keys (`keys.ts`), then `type`, then the
 * entity's fields; reading strips the storage attributes again. `defaults` fill fields an item written before they
 * existed lacks. Reads check only the `type` attribute (a string compare, not a schema parse: lists map hundreds
 * of items on hot paths) and trust the rest as this mapper wrote it.
 *
 * @example
 * const sessionItems = itemMapper({ type: 'session', keys: (s: Session) => ({ ...keys.session(s.reference), ...keys.merchantSessions(s.merchantId, s.mode, s.createdAt, s.reference) }) });
 * await db.send(new PutCommand({ TableName, Item: sessionItems.toItem(session) }));
 * const read = sessionItems.fromItem(Item); // a Session, without pk, sk, gsi1pk, gsi1sk, type
 */
export function itemMapper<T extends object, K extends KeyAttributes, N extends string>(declaration: { type: N; keys: (entity: T) => K; defaults?: Partial<T> }): ItemMapper<T, K, N> {
  const { type, keys, defaults } = declaration;
  const isStored = (item: object): item is StoredItem<T, K, N> => 'type' in item && item.type === type;
  return {
    type,
    toItem: (entity) => ({ ...keys(entity), type, ...entity }),
    fromItem(item) {
      if (!isStored(item)) throw new Error(`Not a ${type} item: its type is ${'type' in item ? String(item.type) : 'missing'}.`);
      const entity: T = { ...defaults, ...item };
      for (const attribute of STORAGE_ATTRIBUTES) Reflect.deleteProperty(entity, attribute);
      return entity;
    },
  };
}
