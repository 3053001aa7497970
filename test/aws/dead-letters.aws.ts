import { GetQueueAttributesCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createParkedRecords } from '../../shared/background/parked-records.ts';
import { createDocumentClient } from '../../shared/store/dynamo-client.ts';
import { RETRY_DELAYS_SECONDS, MAX_ATTEMPTS } from '../../shared/webhooks/retry-schedule.ts';
import { verifyWebhookSignature } from '../../shared/webhooks/signature.ts';
import { queues } from '../../shared/workers.ts';
import { deployStack, type DeployedStack } from './harness/deployed-stack.ts';
import { HIDDEN_FOR_REAL_MS } from './harness/event-sources.ts';
import { deniedCalls } from './harness/iam-check.ts';
import { card, DOCUMENT, newMerchant } from './harness/scenarios.ts';
import { ACCOUNT, REGION, resourcesOfType, type CfnTemplate } from './harness/template.ts';

/** The receiver's answer during the outage. */
const OUTAGE_STATUS = 503;
/** Generous for a busy machine: six attempts, each a warm invocation, the poll and HIDDEN_FOR_REAL_MS. */
const ALL_ATTEMPTS_TIMEOUT_MS = 240_000;

const getAttId = (value: unknown) => (value as { 'Fn::GetAtt'?: [string, string] })?.['Fn::GetAtt']?.[0];

/** The alarms of the template on a queue (by its QueueName dimension). */
const alarmsOn = (template: CfnTemplate, queueId: string) =>
  resourcesOfType(template, 'AWS::CloudWatch::Alarm')
    .filter(([, a]) => (a.Properties.Dimensions ?? []).some((d: { Name: string; Value: unknown }) => d.Name === 'QueueName' && getAttId(d.Value) === queueId))
    .map(([, a]) => a.Properties);

/** What on-call is paged by (infra/constructs/work-queue.ts addDeadLetters): one message visible in the dead-letter queue. */
const DEAD_LETTER_ALARM = { MetricName: 'ApproximateNumberOfMessagesVisible', Namespace: 'AWS/SQS', Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' };

/** The delivery queue as the template wires it: the sender's event source, its redrive target and that queue's alarm. */
function deliveryQueueOf(template: CfnTemplate) {
  const mappings = resourcesOfType(template, 'AWS::Lambda::EventSourceMapping').filter(([, m]) => String(getAttId(m.Properties.FunctionName) ?? m.Properties.FunctionName?.Ref).includes('sendWebhooks'));
  expect(mappings).toHaveLength(1);
  const queueId = getAttId(mappings[0]![1].Properties.EventSourceArn)!;
  const redrive = template.Resources[queueId]!.Properties!.RedrivePolicy as { deadLetterTargetArn: unknown; maxReceiveCount: number };
  const deadLetterId = getAttId(redrive.deadLetterTargetArn)!;
  return { queueId, deadLetterId, maxReceiveCount: redrive.maxReceiveCount, alarms: alarmsOn(template, deadLetterId) };
}

/** Queue counts as SQS reports them (the dead-letter alarm reads ApproximateNumberOfMessagesVisible). */
async function queueCounts(stack: DeployedStack, sqs: SQSClient, logicalId: string) {
  const { Attributes = {} } = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: stack.cloud.queue(logicalId).url, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible', 'ApproximateNumberOfMessagesDelayed'] }),
  );
  return { visible: Number(Attributes.ApproximateNumberOfMessages), inFlight: Number(Attributes.ApproximateNumberOfMessagesNotVisible), delayed: Number(Attributes.ApproximateNumberOfMessagesDelayed) };
}

const deploy = (mutate?: (template: CfnTemplate) => void) => deployStack({ assemblyDir: inject('assemblyDir'), dynamoEndpoint: inject('awsDynamoEndpoint') }, 'lockfile', mutate);

/**
 * A receiver that stays down through every attempt of one delivery, run through the synthesized stack's own bundles
 * (docs/aws-harness.md): the sender's backoff is applied by SQS visibility on moto, whose waits the harness lets pass
 * (event-sources.ts passRetryWaits); the receive count and the redrive to the dead-letter queue are moto's own.
 */
describe('a receiver down through every attempt of a delivery, under aws-lambda-ric', () => {
  let stack: DeployedStack;
  let key: string;
  let endpointId: string;
  let secret: string;
  let wiring: ReturnType<typeof deliveryQueueOf>;
  let eventId: string;
  let deliveryId: string;
  let sqs: SQSClient;

  const sender = () => stack.cloud.functions.find((f) => f.logicalId.includes('sendWebhooks'))!;
  const ofEvent = () => stack.receiver.received.filter((r) => JSON.parse(r.rawBody).id === eventId);
  const signed = (r: { headers: Record<string, unknown>; rawBody: string }) => verifyWebhookSignature({ header: String(r.headers['svc-signature']), rawBody: r.rawBody, secret }).valid;
  const counts = (logicalId: string) => queueCounts(stack, sqs, logicalId);
  const getDelivery = async () => {
    const read = await stack.api.request('GET', `/v1/webhooks/deliveries/${deliveryId}`, { key });
    expect(read.status, read.text).toBe(200);
    return read.body;
  };

  beforeAll(async () => {
    stack = await deploy();
    sqs = stack.cloud.client(SQSClient);
    wiring = deliveryQueueOf(stack.cloud.template);
    key = (await newMerchant(stack)).keys.secretTest;
    const endpoint = await stack.api.request('POST', '/v1/webhooks/endpoints', { key, body: { url: `${stack.receiver.url}/svc`, enabledEvents: ['charge.approved'] } });
    expect(endpoint.status, endpoint.text).toBe(201);
    endpointId = endpoint.body.id;
    secret = endpoint.body.secret;
    stack.events.passRetryWaits(wiring.queueId);
    stack.receiver.down(OUTAGE_STATUS);
  });

  afterAll(async () => {
    sqs?.destroy();
    await stack?.stop();
  });

  it('declares the redrive after the first attempt and its five retries, and an alarm on the dead-letter queue', () => {
    expect(wiring.maxReceiveCount).toBe(MAX_ATTEMPTS);
    expect(wiring.maxReceiveCount).toBe(queues.webhookDeliveries.maxReceiveCount);
    // The alarm pages as soon as one message is visible in the dead-letter queue (infra/constructs/work-queue.ts).
    expect(wiring.alarms).toEqual([expect.objectContaining(DEAD_LETTER_ALARM)]);
  });

  it('tries a charge.approved six times, each signed, on the backoff the sender set on the message, then redrives it to the dead-letter queue', async () => {
    const session = await stack.api.request('POST', '/v1/sessions', { key, body: { amountMinor: 1250, currency: 'VES' } });
    expect(session.status, session.text).toBe(201);
    const charge = await stack.api.request('POST', '/v1/checkout/charge', {
      body: { sessionReference: session.body.reference, card: card(), document: DOCUMENT },
      headers: { 'Idempotency-Key': crypto.randomUUID() },
    });
    expect(charge.status, charge.text).toBe(200);

    await expect
      .poll(() => stack.receiver.received.filter((r) => JSON.parse(r.rawBody).type === 'charge.approved').length, { timeout: ALL_ATTEMPTS_TIMEOUT_MS, interval: 500 })
      .toBe(MAX_ATTEMPTS);
    eventId = JSON.parse(stack.receiver.received[0]!.rawBody).id;
    // The last attempt made the message visible at once; its next receive is past maxReceiveCount: moto moves it.
    await expect.poll(async () => (await counts(wiring.deadLetterId)).visible, { timeout: 60_000, interval: 500 }).toBe(1);

    const attempts = ofEvent();
    expect(attempts).toHaveLength(MAX_ATTEMPTS);
    expect(attempts.every(signed)).toBe(true);
    expect(attempts.map((a) => a.status)).toEqual(Array(MAX_ATTEMPTS).fill(OUTAGE_STATUS));
    expect(JSON.parse(attempts[0]!.rawBody).data).toMatchObject({ sessionReference: session.body.reference });
    expect(attempts.map((a) => a.rawBody).join('\n')).not.toContain('4111111111111111');

    // What the sender told SQS after each failure: the retry delays, then 0 (retries spent, straight to the redrive).
    const visibility = stack.cloud.recorder.calls.filter((c) => c.role === sender().roleLogicalId && c.action === 'sqs:ChangeMessageVisibility').map((c) => c.visibility?.seconds);
    expect(visibility).toEqual([...RETRY_DELAYS_SECONDS, 0]);
    // The harness passed exactly those waits, one per failed receive, and no attempt came before its wait was passed:
    // the message stayed hidden for HIDDEN_FOR_REAL_MS of real time each time.
    const waits = stack.events.passedWaits.filter((w) => w.queueLogicalId === wiring.queueId);
    expect(waits.map((w) => [w.receiveCount, w.hiddenSeconds, w.error])).toEqual(RETRY_DELAYS_SECONDS.map((s, i) => [i + 1, s, undefined]));
    for (const [i, wait] of waits.entries()) {
      expect(attempts[i + 1]!.at).toBeGreaterThanOrEqual(wait.passedAt);
      expect(wait.passedAt - attempts[i]!.at).toBeGreaterThanOrEqual(HIDDEN_FOR_REAL_MS);
    }
  });

  it('records the delivery failed with each attempt, through the API', async () => {
    const listed = await stack.api.request('GET', `/v1/webhooks/deliveries?eventId=${eventId}`, { key });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0]).toMatchObject({ state: 'failed', endpointId, eventType: 'charge.approved', attemptCount: MAX_ATTEMPTS });
    deliveryId = listed.body.data[0].id;
    const delivery = await getDelivery();
    expect(delivery).toMatchObject({ state: 'failed', attemptCount: MAX_ATTEMPTS, lastStatusCode: OUTAGE_STATUS, nextRetryAt: null, failureReason: null });
    expect(delivery.attempts.map((a: { attempt: number; manual: boolean; statusCode: number }) => [a.attempt, a.manual, a.statusCode])).toEqual(
      Array.from({ length: MAX_ATTEMPTS }, (_, i) => [i + 1, false, OUTAGE_STATUS]),
    );
    // Each attempt says when its retry was due: the backoff, on the functions' real clock; none after the last.
    const dueAfter = delivery.attempts.map((a: { at: string; nextRetryAt: string | null }) => (a.nextRetryAt === null ? null : (Date.parse(a.nextRetryAt) - Date.parse(a.at)) / 1000));
    expect(dueAfter).toEqual([...RETRY_DELAYS_SECONDS, null]);
  });

  it('leaves the message in the dead-letter queue, where the alarm sees it, and nowhere else', async () => {
    // No seventh attempt, nothing left in the delivery queue, nothing parked by the worker (the redrive is the design).
    expect(ofEvent()).toHaveLength(MAX_ATTEMPTS);
    expect(await counts(wiring.queueId)).toEqual({ visible: 0, inFlight: 0, delayed: 0 });
    // The alarm's metric (ApproximateNumberOfMessagesVisible) is at its threshold.
    expect(await counts(wiring.deadLetterId)).toEqual({ visible: 1, inFlight: 0, delayed: 0 });
    const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: stack.cloud.queue(wiring.deadLetterId).url, VisibilityTimeout: 0, MessageSystemAttributeNames: ['ApproximateReceiveCount'] }));
    expect(Messages).toHaveLength(1);
    expect(JSON.parse(Messages[0]!.Body!)).toEqual({ deliveryId });
    expect(Number(Messages[0]!.Attributes!.ApproximateReceiveCount)).toBeGreaterThan(MAX_ATTEMPTS);
    const db = createDocumentClient({ tableName: stack.cloud.tableName, endpoint: stack.dynamo.endpoint });
    expect((await createParkedRecords(db, stack.cloud.tableName).list()).filter((p) => p.workerId === 'sendWebhooks')).toEqual([]);
    db.destroy();
  });

  it('emits the WebhookDeliveries metric of each attempt: five retrying, then failed', () => {
    const outcomes = (stack.logs.get(sender().logicalId) ?? []).flatMap((line) => {
      const json = line.slice(line.indexOf('{'));
      try {
        const entry = JSON.parse(json) as { _aws?: { CloudWatchMetrics?: { Metrics: { Name: string }[] }[] }; outcome?: string };
        return entry._aws?.CloudWatchMetrics?.[0]?.Metrics.some((m) => m.Name === 'WebhookDeliveries') ? [entry.outcome] : [];
      } catch {
        return [];
      }
    });
    expect(outcomes).toEqual([...Array(MAX_ATTEMPTS - 1).fill('retrying'), 'failed']);
  });

  it('delivers it on a manual retry through the API once the receiver is back', async () => {
    stack.receiver.up();
    const retry = await stack.api.request('POST', `/v1/webhooks/deliveries/${deliveryId}/retry`, { key, body: {} });
    expect(retry.status, retry.text).toBe(202);
    await expect.poll(() => ofEvent().filter((r) => r.status === 200).length, { timeout: 60_000, interval: 500 }).toBe(1);
    const last = ofEvent().at(-1)!;
    expect(signed(last)).toBe(true);
    await expect.poll(async () => (await getDelivery()).state, { timeout: 30_000, interval: 500 }).toBe('succeeded');
    const delivery = await getDelivery();
    expect(delivery.attemptCount).toBe(MAX_ATTEMPTS + 1);
    expect(delivery.attempts.at(-1)).toMatchObject({ attempt: MAX_ATTEMPTS + 1, manual: true, statusCode: 200, nextRetryAt: null });
    // The dead letter stays for whoever inspects it; the manual retry is a new message, sent and deleted.
    await expect.poll(() => counts(wiring.queueId), { timeout: 30_000, interval: 500 }).toEqual({ visible: 0, inFlight: 0, delayed: 0 });
    expect((await counts(wiring.deadLetterId)).visible).toBe(1);
  });

  it('made only AWS calls that the functions\' roles in the template allow', () => {
    expect(deniedCalls(stack.cloud.template, stack.cloud.ids, stack.cloud.recorder.calls)).toEqual([]);
  });
});

/**
 * A session's expiry hand-over that Scheduler cannot deliver: the planner's schedules name a hand-over function that
 * does not exist (as after it was removed), so Lambda answers ResourceNotFoundException and Scheduler sends the
 * schedule's input to the target's dead-letter queue (finding 5). The schedule fires at its real time.
 */
describe('a session-expiry hand-over Scheduler cannot deliver, under aws-lambda-ric', () => {
  const MISSING = `arn:aws:lambda:${REGION}:${ACCOUNT}:function:handOverRemoved`;
  let stack: DeployedStack;
  let sqs: SQSClient;
  let deadLetterId: string;
  let schedulerRoleId: string;

  beforeAll(async () => {
    stack = await deploy((template) => {
      const planners = resourcesOfType(template, 'AWS::Lambda::Function').filter(([, f]) => f.Properties.Environment?.Variables?.SCHEDULE_TARGET_ARN);
      expect(planners).toHaveLength(1);
      const variables = planners[0]![1].Properties.Environment.Variables;
      deadLetterId = getAttId(variables.SCHEDULE_DEAD_LETTER_ARN)!;
      schedulerRoleId = getAttId(variables.SCHEDULER_ROLE_ARN)!;
      variables.SCHEDULE_TARGET_ARN = MISSING;
    });
    sqs = stack.cloud.client(SQSClient);
  });

  afterAll(async () => {
    sqs?.destroy();
    await stack?.stop();
  });

  it('lands the hand-over in the schedule dead-letter queue, with its error, where the alarm sees it', async () => {
    expect(alarmsOn(stack.cloud.template, deadLetterId)).toEqual([expect.objectContaining(DEAD_LETTER_ALARM)]);
    const key = (await newMerchant(stack)).keys.secretTest;
    // The shortest session: its schedule is due SCHEDULE_LEAD_SECONDS before expiresAt, 30 s from now.
    const session = await stack.api.request('POST', '/v1/sessions', { key, body: { amountMinor: 700, currency: 'VES', expiresInMinutes: 2 } });
    expect(session.status, session.text).toBe(201);
    await expect.poll(async () => (await queueCounts(stack, sqs, deadLetterId)).visible, { timeout: 150_000, interval: 1000 }).toBe(1);

    expect(stack.events.deadLetteredSchedules).toEqual([expect.objectContaining({ target: MISSING, errorCode: 'ResourceNotFoundException' })]);
    const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: stack.cloud.queue(deadLetterId).url, VisibilityTimeout: 0, MessageAttributeNames: ['All'] }));
    expect(Messages).toHaveLength(1);
    expect(JSON.parse(Messages[0]!.Body!)).toMatchObject({ reference: session.body.reference, expiresAt: session.body.expiresAt });
    expect(Messages[0]!.MessageAttributes?.ERROR_CODE?.StringValue).toBe('ResourceNotFoundException');
    // Nothing handed the session over: the dead letter is what tells on-call (docs/runbook.md).
    expect(stack.events.invocations.filter((i) => i.functionLogicalId.includes('expireSessions'))).toEqual([]);
    // The schedule's role may send there (the grant finding 5 added), and made every other call allowed.
    expect(stack.cloud.recorder.calls).toContainEqual(expect.objectContaining({ role: schedulerRoleId, action: 'sqs:SendMessage', resources: [stack.cloud.queue(deadLetterId).arn] }));
    expect(deniedCalls(stack.cloud.template, stack.cloud.ids, stack.cloud.recorder.calls)).toEqual([]);
  });
});
