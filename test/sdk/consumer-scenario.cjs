// What a merchant's plain Node.js server does with @svc/node; run once from ESM and once from CommonJS.
// Prints one JSON line of what it saw. The SDK module is passed in, so both module systems run the same steps.
module.exports = async function run(sdk) {
  const { createSvcClient, parseWebhookEvent, SvcApiError, WebhookSignatureError } = sdk;
  const env = process.env;
  const sentKeys = [];
  let dropped = false;
  // The first create reaches the API, then its answer is lost: the client must send it again with the same key.
  const losingFetch = async (url, init) => {
    const res = await fetch(url, init);
    if (init.method === 'POST' && String(url).endsWith('/v1/sessions')) {
      sentKeys.push(init.headers['idempotency-key']);
      if (!dropped) {
        dropped = true;
        await res.text();
        throw new TypeError('fetch failed');
      }
    }
    return res;
  };
  const svc = createSvcClient({ baseUrl: env.SVC_URL, secretKey: env.SVC_KEY, fetch: losingFetch });
  const created = await svc.sessions.create({ amountMinor: 1050, currency: 'VES', description: 'Pedido 42' });
  const read = await svc.sessions.get(created.reference);
  const listed = await svc.sessions.list({ pageSize: 100 });

  let error;
  try {
    await svc.sessions.create({ amountMinor: -5, currency: 'XXX' });
  } catch (e) {
    error = { isSvcApiError: e instanceof SvcApiError, status: e.status, code: e.code, requestId: e.requestId, docUrl: e.docUrl, errors: e.errors };
  }

  const event = parseWebhookEvent({ rawBody: env.WEBHOOK_BODY, header: env.WEBHOOK_HEADER, secret: env.WEBHOOK_SECRET });
  const rejection = (options) => {
    try {
      parseWebhookEvent({ rawBody: env.WEBHOOK_BODY, secret: env.WEBHOOK_SECRET, ...options });
      return 'accepted';
    } catch (e) {
      return e instanceof WebhookSignatureError ? e.reason : String(e);
    }
  };
  const webhook = {
    eventId: event.id,
    tampered: rejection({ header: env.WEBHOOK_HEADER, rawBody: `${env.WEBHOOK_BODY} ` }),
    oldDefault: rejection({ header: env.OLD_WEBHOOK_HEADER }),
    oldWiderTolerance: rejection({ header: env.OLD_WEBHOOK_HEADER, toleranceSeconds: 900 }),
  };
  console.log(JSON.stringify({ sentKeys, created, read, sameReferenceListed: listed.data.filter((s) => s.description === 'Pedido 42').length, error, webhook }));
};
