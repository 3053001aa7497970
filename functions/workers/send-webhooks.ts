import { EventType } from '@aws-lambda-powertools/batch';
import type { SQSRecord } from 'aws-lambda';
import { defineRecordWorker } from '../../shared/background/define-record-worker.ts';
import type { WorkerDeps } from '../../shared/background/define-worker.ts';
import { NotYetDoneError } from '../../shared/background/worker-errors.ts';
import type { EventEnvelope } from '../../shared/domain/events.ts';
import { policies } from '../../shared/retry/policies.ts';
import { retry } from '../../shared/retry/retry.ts';
import { ConditionFailedError } from '../../shared/store/conditions.ts';
import { afterAttempt, abandonDelivery, type AttemptResult, type DeliveryMessage, type WebhookDelivery } from '../../shared/webhooks/delivery.ts';
import { credentialsContext, secretContext, type EndpointCredentials, type WebhookEndpoint } from '../../shared/webhooks/endpoint.ts';
import { HttpPostError } from '../../shared/webhooks/http-post.ts';
import { OAuthTokenError } from '../../shared/webhooks/oauth-tokens.ts';
import { outboundAuthHeaders } from '../../shared/webhooks/outbound-auth.ts';
import { SIGNATURE_HEADER, signatureHeader } from '../../shared/webhooks/signature.ts';
import { systemClock } from '../../shared/clock.ts';
import { cryptoFromEnvironment } from '../../shared/crypto/create-crypto.ts';
import { webhookHttpFromEnvironment } from '../../shared/webhooks/oauth-tokens.ts';
import { queuesFromEnvironment } from '../../shared/background/queues-from-environment.ts';

/** Thrown to report the message as failed: its retry (or its move to the dead-letter queue) is already arranged. */
class DeliveryNotYetDoneError extends NotYetDoneError {
  constructor(deliveryId: string) {
    super(`Delivery ${deliveryId} failed; retry scheduled through the message visibility.`);
    this.name = 'DeliveryNotYetDoneError';
  }
}

/**
 * Writes the outcome over the delivery as read before the attempt; a concurrent attempt (a manual retry beside an
 * automatic one) makes it read again and apply again (the versionRace policy).
 */
function saveOutcome(deps: WorkerDeps<'sendWebhooks'>, read: WebhookDelivery, apply: (d: WebhookDelivery) => WebhookDelivery): Promise<WebhookDelivery | null> {
  return retry(
    policies.versionRace,
    async (n) => {
      const current = n === 1 ? read : await deps.webhookDeliveries.get(read.id);
      if (!current) return null;
      const next = { ...apply(current), version: current.version + 1 };
      await deps.webhookDeliveries.save(next, current.version);
      return next;
    },
    { isRetryable: (error) => error instanceof ConditionFailedError },
  );
}

/** One signed, authenticated POST; for oauth2 a 401 to a cached token fetches a fresh one and tries once more. */
async function attempt(deps: WorkerDeps<'sendWebhooks'>, endpoint: WebhookEndpoint, envelope: EventEnvelope): Promise<AttemptResult> {
  // The spec's field order; the stored map comes back from DynamoDB in any order.
  const body = JSON.stringify({ id: envelope.id, type: envelope.type, createdAt: envelope.createdAt, env: envelope.env, data: envelope.data });
  const secret = await deps.secretBox.decrypt(endpoint.secretCiphertext, secretContext(endpoint));
  const credentials: EndpointCredentials = endpoint.credentialsCiphertext
    ? (JSON.parse(await deps.secretBox.decrypt(endpoint.credentialsCiphertext, credentialsContext(endpoint))) as EndpointCredentials)
    : {};
  const post = (token?: string) =>
    deps.httpPost(endpoint.url, {
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'svc-webhooks/1',
        // Real time, never the injected clock: the receiver checks t against its own clock, and a moved sandbox clock
        // would make every later signature fall outside its tolerance (the event's createdAt keeps the service's time).
        [SIGNATURE_HEADER]: signatureHeader(secret, body, Math.floor(systemClock.now() / 1000)),
        ...outboundAuthHeaders(endpoint, credentials, token),
      },
      body,
    });
  try {
    let answer;
    if (endpoint.authType === 'oauth2') {
      answer = await post(await deps.oauthTokens.token(endpoint.id, endpoint, credentials));
      if (answer.statusCode === 401) answer = await post(await deps.oauthTokens.token(endpoint.id, endpoint, credentials, { refresh: true }));
    } else {
      answer = await post();
    }
    return { statusCode: answer.statusCode, durationMs: answer.durationMs, responseExcerpt: answer.excerpt, error: null };
  } catch (error) {
    if (error instanceof HttpPostError) return { statusCode: null, durationMs: error.durationMs, responseExcerpt: null, error: `${error.reason}: ${error.message}` };
    if (error instanceof OAuthTokenError) return { statusCode: null, durationMs: 0, responseExcerpt: null, error: `oauth_token: ${error.message}` };
    throw error;
  }
}

async function send(record: SQSRecord, deps: WorkerDeps<'sendWebhooks'>): Promise<void> {
  const message = JSON.parse(record.body) as DeliveryMessage;
  const manual = message.manual === true;
  const delivery = await deps.webhookDeliveries.get(message.deliveryId);
  if (!delivery) return deps.logger.warn('Delivery not found; message dropped', { deliveryId: message.deliveryId });
  if (!manual && (delivery.state === 'succeeded' || delivery.state === 'failed')) return;

  const endpoint = await deps.webhookEndpoints.get(delivery.endpointId);
  const stored = await deps.outbox.get(delivery.eventId);
  const stopReason = !endpoint ? 'endpoint_deleted' : !stored ? 'event_expired' : endpoint.status === 'disabled' && delivery.eventType !== 'webhook.test' ? 'endpoint_disabled' : null;
  if (stopReason || !endpoint || !stored) {
    await saveOutcome(deps, delivery, (d) => abandonDelivery(d, stopReason ?? 'endpoint_deleted', deps.clock.now()));
    return;
  }

  const result = await attempt(deps, endpoint, stored.envelope);
  let retryInSeconds: number | null = null;
  const saved = await saveOutcome(deps, delivery, (d) => {
    const outcome = afterAttempt(d, result, { manual, now: deps.clock.now() });
    retryInSeconds = outcome.retryInSeconds;
    return outcome.delivery;
  });
  deps.logger.info('Webhook attempt', { deliveryId: delivery.id, endpointId: endpoint.id, statusCode: result.statusCode, state: saved?.state, error: result.error });
  if (saved && saved.state !== 'pending') deps.metrics.webhookDelivery(saved.state);
  if (manual || saved?.state === 'succeeded') return;
  if (retryInSeconds !== null) {
    await deps.queues.webhookDeliveries.changeVisibility(record.receiptHandle, retryInSeconds);
    throw new DeliveryNotYetDoneError(delivery.id);
  }
  if (saved?.state === 'failed') {
    // Retries spent: shown again at once, the next receive exceeds maxReceiveCount and redrive moves it to the
    // dead-letter queue, where the alarm sees it.
    await deps.queues.webhookDeliveries.changeVisibility(record.receiptHandle, 0);
    throw new DeliveryNotYetDoneError(delivery.id);
  }
}

export const { build, handler } = defineRecordWorker('sendWebhooks', EventType.SQS, send, { crypto: cryptoFromEnvironment, webhookHttp: webhookHttpFromEnvironment, queues: queuesFromEnvironment });
