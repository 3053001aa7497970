/**
 * The one DynamoDB table, declared once: the CDK stack and the sandbox both create it from this.
 * Access patterns and key layout are explained in docs/data-model.md.
 */
export const tableDefinition = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'ttl',
  gsi1: {
    name: 'gsi1',
    partitionKey: 'gsi1pk',
    sortKey: 'gsi1sk',
    // Small projection: lists page through keys plus what decides the status shown, then fetch one page of items.
    nonKeyAttributes: ['status', 'expiresAt'],
  },
  // Sparse: only payment search entries with a customerRef have its keys (gsi1 holds their last four).
  gsi2: {
    name: 'gsi2',
    partitionKey: 'gsi2pk',
    sortKey: 'gsi2sk',
    nonKeyAttributes: ['status', 'expiresAt'],
  },
} as const;

/** Every secondary index of the table, in creation order. */
export const secondaryIndexes = [tableDefinition.gsi1, tableDefinition.gsi2] as const;
