import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES, type EventEnvelope } from '../../shared/domain/events.ts';
import { isPublicRoute, OPERATION_DESCRIPTIONS, type PublicRouteId } from '../../shared/openapi/operation-descriptions.ts';
import { OPERATION_EXAMPLES, type OperationExample } from '../../shared/openapi/operation-examples.ts';
import { OPERATION_SUMMARIES } from '../../shared/openapi/operation-summaries.ts';
import { routeIds, routes } from '../../shared/routes.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';
import { startReceiver, type TestReceiver } from '../support/webhook-receiver.ts';
import { runExampleScenario } from './example-scenario.ts';
import { responseValidator } from './response-validator.ts';
import { blankIdsAndTimes, stabilise } from './stable-examples.ts';

const RECORD = process.env.RECORD_OPENAPI_EXAMPLES === '1';
const EXAMPLES_FILE = new URL('../../shared/openapi/examples.json', import.meta.url);
const publicIds = routeIds.filter(isPublicRoute);

/**
 * Every public operation has a description and a request and response example; each example is valid against its
 * schema and was a real exchange: the scenario that recorded it runs again here and must send the same requests
 * (ids and times aside) and get the documented statuses. `npm run openapi:examples` records them anew.
 */
describe('the OpenAPI examples', () => {
  let sandbox: TestSandbox;
  let receiver: TestReceiver;
  let document: any;
  let scenario: Awaited<ReturnType<typeof runExampleScenario>>;
  let live: Map<PublicRouteId, OperationExample>;
  let examples: Partial<Record<PublicRouteId, OperationExample>> = OPERATION_EXAMPLES;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    receiver = await startReceiver();
    scenario = await runExampleScenario(sandbox, receiver);
    live = scenario.exchanges;
    if (RECORD) {
      examples = stabilise(Object.fromEntries(publicIds.filter((id) => live.has(id)).map((id) => [id, live.get(id)!])));
      writeFileSync(EXAMPLES_FILE, `${JSON.stringify(examples, null, 2)}\n`);
    }
    // The document as served, so it holds the examples of the file just read.
    document = (await sandbox.request('GET', '/v1/openapi.json')).body;
  }, 120_000);
  afterAll(async () => {
    await sandbox?.stop();
    await receiver?.close();
  });

  it('describes every public operation and gives each an example', () => {
    for (const id of publicIds) {
      expect(OPERATION_DESCRIPTIONS[id].length, `${id} description`).toBeGreaterThan(OPERATION_SUMMARIES[id].length);
      expect(live.get(id), `the example scenario calls ${id}`).toBeDefined();
      expect(examples[id], `${id} has a recorded example: run npm run openapi:examples`).toBeDefined();
    }
    const internal = routeIds.filter((id) => !isPublicRoute(id));
    for (const id of internal) expect(document.paths[routes[id].path]?.[routes[id].method.toLowerCase()], `${id} is internal`).toBeUndefined();
  });

  it('replays each example request against the sandbox with the documented status', () => {
    for (const id of publicIds) {
      const recorded = examples[id]!;
      const replayed = live.get(id)!;
      expect(blankIdsAndTimes(replayed.request), id).toEqual(blankIdsAndTimes(recorded.request));
      expect(replayed.response.status, `${id}: ${JSON.stringify(replayed.response.body)}`).toBe(recorded.response.status);
    }
  });

  // Recording writes the file after this process built its document: the next, plain run checks the document.
  it.skipIf(RECORD)('puts each example in the document, valid against its schema', () => {
    const problemsOf = responseValidator(document);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema(document, 'openapi.json');
    for (const id of publicIds) {
      const { method, path } = routes[id];
      const operation = document.paths[path][method.toLowerCase()];
      const example = examples[id]!;
      expect(operation.description, id).toBe(OPERATION_DESCRIPTIONS[id]);
      const content = operation.responses[String(example.response.status)].content;
      if (example.response.body !== undefined) {
        expect(content['application/json'].example, id).toEqual(example.response.body);
        expect(problemsOf(method, example.request.path, { status: example.response.status, body: example.response.body }), id).toEqual([]);
      }
      if (example.request.body !== undefined) {
        const media = operation.requestBody.content['application/json'];
        expect(media.example, id).toEqual(example.request.body);
        const pointer = `openapi.json#/paths/${path.replaceAll('/', '~1')}/${method.toLowerCase()}/requestBody/content/application~1json/schema`;
        const validate = ajv.getSchema(pointer)!;
        expect(validate(example.request.body) ? [] : validate.errors, `${id} request example`).toEqual([]);
      }
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in === 'path') expect(parameter.example, `${id} ${parameter.name}`).toBeDefined();
      }
    }
  });

  it('documents every event type in the webhooks section, with a valid example; real deliveries match it', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema(document, 'openapi.json');
    const validateEvent = (event: EventEnvelope) => {
      const validate = ajv.getSchema(`openapi.json#/webhooks/${event.type}/post/requestBody/content/application~1json/schema`);
      if (!validate) return [`${event.type} is not documented`];
      return validate(event) ? [] : (validate.errors ?? []).map((e) => `${event.type} ${e.instancePath} ${e.message}`);
    };
    expect(Object.keys(document.webhooks).sort()).toEqual([...EVENT_TYPES].sort());
    for (const type of EVENT_TYPES) {
      const media = document.webhooks[type].post.requestBody.content['application/json'];
      expect(validateEvent(media.example), type).toEqual([]);
    }
    // Every event the scenario's flows wrote (charges, refund, OTP steps, cards, expiry) and every delivery it received.
    await sandbox.background.drain();
    const written = (await Promise.all(scenario.merchants.map(({ id, mode }) => sandbox.deps.outbox.listForMerchant(id, mode)))).flat().map((e) => e.envelope);
    const delivered = receiver.received.map((r) => JSON.parse(r.rawBody) as EventEnvelope);
    const types = new Set(written.map((e) => e.type));
    for (const type of ['charge.approved', 'charge.refunded', 'card.stored', 'card.deleted', 'session.otp_requested', 'session.otp_confirmed', 'session.expired']) expect(types).toContain(type);
    expect(delivered.length).toBeGreaterThan(0);
    for (const event of [...written, ...delivered]) expect(validateEvent(event), JSON.stringify(event)).toEqual([]);
  });

  it('catches an example that breaks its schema (the check itself can fail)', () => {
    const problemsOf = responseValidator(document);
    const session = examples.getSession!;
    expect(problemsOf('GET', session.request.path, { status: 200, body: { ...(session.response.body as object), amountMinor: 'ten' } })).not.toEqual([]);
  });
});
