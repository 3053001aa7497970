import { EventType } from '@aws-lambda-powertools/batch';
import type { SQSRecord } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineRecordWorker } from '../../shared/background/define-record-worker.ts';
import { defineWorker } from '../../shared/background/define-worker.ts';
import { queuesFromEnvironment } from '../../shared/background/queues-from-environment.ts';
import { NotYetDoneError } from '../../shared/background/worker-errors.ts';
import { cryptoFromEnvironment } from '../../shared/crypto/create-crypto.ts';
import type { AllDeps } from '../../shared/deps.ts';
import { webhookHttpFromEnvironment } from '../../shared/webhooks/oauth-tokens.ts';
import { createLogger } from '../../shared/observability/logger.ts';

/** Every line the logger writes while `run` runs, parsed: one JSON object per call, errors to stderr, the rest to stdout. */
async function capture<T>(run: () => Promise<T>): Promise<{ result: T; lines: Record<string, unknown>[] }> {
  const written: string[] = [];
  for (const stream of [process.stdout, process.stderr]) {
    vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => written.push(String(chunk)) > 0);
  }
  const result = await run();
  vi.restoreAllMocks();
  const lines = written.flatMap((l) => l.split('\n')).filter((l) => l.trim().startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
  return { result, lines };
}
afterEach(() => vi.restoreAllMocks());

// The worker definer uses only the logger of the dependencies; the worker under test uses nothing.
const deps = () => ({ logger: createLogger({ logLevel: 'INFO' }) }) as AllDeps;
const message = (messageId: string, body: string) => ({ messageId, body, receiptHandle: `rh-${messageId}` }) as SQSRecord;

class DeliveryNotYetDoneError extends NotYetDoneError {}

describe('a record worker', () => {
  const worker = defineRecordWorker('sendWebhooks', EventType.SQS, async (record) => {
    if (record.body === 'poisoned') throw new TypeError('Cannot read properties of undefined (card 4111111111111111)');
    if (record.body === 'later') throw new DeliveryNotYetDoneError('retry arranged');
  }, { crypto: cryptoFromEnvironment, webhookHttp: webhookHttpFromEnvironment, queues: queuesFromEnvironment });

  it('logs an unexpected error with the worker, the message id, the error name and message, then reports the message failed', async () => {
    const { result, lines } = await capture(() => worker.build(deps())({ Records: [message('m1', 'fine'), message('m2', 'poisoned')] }));
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm2' }] });
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'ERROR',
        message: 'Worker failed',
        worker: 'sendWebhooks',
        recordId: 'm2',
        errorName: 'TypeError',
        errorMessage: 'Cannot read properties of undefined (card ************1111)',
      }),
    ]);
    expect(JSON.stringify(lines)).not.toContain('rh-m2');
  });

  it('stays quiet on a "not yet" outcome, which it reports failed all the same', async () => {
    const { result, lines } = await capture(() => worker.build(deps())({ Records: [message('m3', 'later')] }));
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm3' }] });
    expect(lines).toEqual([]);
  });
});

describe('any worker', () => {
  it('logs an error it throws, then throws it on to the runtime', async () => {
    const worker = defineWorker('handOverSessionExpiry', async () => {
      throw new Error('Missing required environment variable SESSION_EXPIRY_QUEUE_URL');
    }, { queues: queuesFromEnvironment });
    const { result, lines } = await capture(() => worker.build(deps())({}).catch((error: unknown) => error));
    expect(result).toEqual(new Error('Missing required environment variable SESSION_EXPIRY_QUEUE_URL'));
    expect(lines).toEqual([expect.objectContaining({ level: 'ERROR', worker: 'handOverSessionExpiry', errorName: 'Error', errorMessage: 'Missing required environment variable SESSION_EXPIRY_QUEUE_URL' })]);
  });
});

describe('the webhook sender', () => {
  it('logs a message it cannot read, then reports it failed', async () => {
    const { build } = await import('../../functions/workers/send-webhooks.ts');
    const { result, lines } = await capture(() => build(deps())({ Records: [message('m9', 'not json')] }));
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm9' }] });
    expect(lines).toEqual([expect.objectContaining({ level: 'ERROR', worker: 'sendWebhooks', recordId: 'm9', errorName: 'SyntaxError' })]);
  });
});
