import { Duration, Stack } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { Grant, type IGrantable } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { keys } from '../../shared/store/keys.ts';
import { secondaryIndexes, tableDefinition } from '../../shared/store/table-definition.ts';
import type { StageConfig } from '../stage-config.ts';

/** Item-level reads: no Scan (every access pattern is a key or index query). */
export const ITEM_READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'];
/** Item-level writes; TransactWriteItems is authorised per item through these. No BatchWriteItem: nothing writes in batches. */
export const ITEM_WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:ConditionCheckItem'];
/**
 * What DynamoDB asks of the caller's principal to use the table key: the sets CDK's grantReadData/grantWriteData add,
 * with their wildcards (ReEncrypt*, GenerateDataKey*) spelt out so no action beyond them is ever included.
 */
const KEY_READ_ACTIONS = ['kms:Decrypt', 'kms:DescribeKey'];
export const KEY_WRITE_ACTIONS = ['kms:Encrypt', 'kms:ReEncryptFrom', 'kms:ReEncryptTo', 'kms:GenerateDataKey', 'kms:GenerateDataKeyWithoutPlaintext'];

/** `PARKED#*`: the partition keys of parked records. */
export const PARKED_RECORD_KEY_PATTERN = `${keys.parkedRecord('w', 'r').pk.split('#', 1)[0]}#*`;

/** A stream's records, by its ARN. */
const STREAM_READ_ACTIONS = ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'];

/** `RATE#*`: the partition keys of rate-limit counters, taken from the key builders so the two cannot drift. */
export const RATE_COUNTER_KEY_PATTERN = `${keys.rateWindow('m', 'c', 'w').pk.split('#', 1)[0]}#*`;

/** `DASHBOARD_SESSION#*`: signed-in dashboard sessions, whose last activity every call of a user records. */
export const DASHBOARD_SESSION_KEY_PATTERN = `${keys.dashboardSession('t').pk.split('#', 1)[0]}#*`;

export interface DataStoreProps {
  config: StageConfig;
}

/**
 * The single table, declared by shared/store/table-definition.ts (the sandbox creates DynamoDB Local's from the
 * same declaration), encrypted with its own customer-managed key. Access is granted only through the narrow
 * grant methods below, never the table's broad grantReadWriteData.
 */
export class DataStore extends Construct {
  readonly table: Table;
  readonly key: Key;

  constructor(scope: Construct, id: string, { config }: DataStoreProps) {
    super(scope, id);
    const { partitionKey, sortKey, ttlAttribute } = tableDefinition;

    this.key = new Key(this, 'TableKey', {
      description: `svc-payments ${config.stage}: DynamoDB table encryption`,
      enableKeyRotation: true,
      removalPolicy: config.removalPolicy,
      // Only reached in non-production stages (production retains the key); the shortest window AWS allows.
      pendingWindow: Duration.days(7),
    });

    this.table = new Table(this, 'Table', {
      partitionKey: { name: partitionKey, type: AttributeType.STRING },
      sortKey: { name: sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: ttlAttribute,
      // Change data capture for the outbox (webhooks) and expiry: consumers need the item as written.
      stream: StreamViewType.NEW_IMAGE,
      encryption: TableEncryption.CUSTOMER_MANAGED,
      encryptionKey: this.key,
      deletionProtection: config.production,
      removalPolicy: config.removalPolicy,
    });
    for (const index of secondaryIndexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        projectionType: ProjectionType.INCLUDE,
        nonKeyAttributes: [...index.nonKeyAttributes],
      });
    }
  }

  /** Get, batch get and query the table and its index. */
  grantItemRead(grantee: IGrantable): void {
    this.grantOnItems(grantee, ITEM_READ_ACTIONS);
    this.grantOnKey(grantee, KEY_READ_ACTIONS);
  }

  /** Read plus put, update, delete and condition checks on items; no Scan, no table management. */
  grantItemReadWrite(grantee: IGrantable): void {
    this.grantOnItems(grantee, [...ITEM_READ_ACTIONS, ...ITEM_WRITE_ACTIONS]);
    this.grantOnKey(grantee, [...KEY_READ_ACTIONS, ...KEY_WRITE_ACTIONS]);
  }

  /**
   * UpdateItem on the given kinds of item only (partition-key patterns), for routes that otherwise just read: the
   * rate limiter's counters, a signed-in user's session activity. IAM checks every item of a TransactWriteItems
   * against the LeadingKeys condition, so no other item can be written.
   */
  grantItemUpdates(grantee: IGrantable, keyPatterns: readonly string[]): void {
    Grant.addToPrincipal({
      grantee,
      actions: ['dynamodb:UpdateItem'],
      resourceArns: [this.table.tableArn],
      conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...keyPatterns] } },
    });
    this.grantOnKey(grantee, [...KEY_READ_ACTIONS, ...KEY_WRITE_ACTIONS]);
  }

  /**
   * What Lambda's event source mapping asks of a stream consumer's role: the stream's records, ListStreams (which
   * takes no resource: it lists the account's streams, names only), and the key only through DynamoDB, as for items.
   * CDK's table.grantStreamRead would grant the key without that condition.
   */
  grantStreamRead(grantee: IGrantable): void {
    Grant.addToPrincipal({ grantee, actions: ['dynamodb:ListStreams'], resourceArns: ['*'] });
    Grant.addToPrincipal({ grantee, actions: STREAM_READ_ACTIONS, resourceArns: [this.table.tableStreamArn!] });
    this.grantOnKey(grantee, KEY_READ_ACTIONS);
  }

  /**
   * Parking a record a worker gave up on, and taking it back on replay (shared/background/parked-records.ts): item
   * writes on PARKED# items only, for workers that otherwise do not write the table (the expiry planner).
   */
  grantParkedRecordWrites(grantee: IGrantable): void {
    Grant.addToPrincipal({
      grantee,
      actions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
      resourceArns: [this.table.tableArn],
      conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [PARKED_RECORD_KEY_PATTERN] } },
    });
    this.grantOnKey(grantee, [...KEY_READ_ACTIONS, ...KEY_WRITE_ACTIONS]);
  }

  private grantOnItems(grantee: IGrantable, actions: string[]): void {
    Grant.addToPrincipal({
      grantee,
      actions,
      resourceArns: [this.table.tableArn, ...secondaryIndexes.map((index) => `${this.table.tableArn}/index/${index.name}`)],
    });
  }

  /** Only through DynamoDB: the key cannot be used directly even by a principal holding these grants. */
  private grantOnKey(grantee: IGrantable, actions: string[]): void {
    Grant.addToPrincipal({
      grantee,
      actions,
      resourceArns: [this.key.keyArn],
      conditions: { StringEquals: { 'kms:ViaService': `dynamodb.${Stack.of(this).region}.amazonaws.com` } },
    });
  }
}
