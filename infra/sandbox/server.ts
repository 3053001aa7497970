import type { APIGatewayProxyResult } from 'aws-lambda';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import type { OffsetClock } from '../../shared/clock.ts';
import type { AllDeps } from '../../shared/deps.ts';
import type { LambdaHandler } from '../../shared/http/api-handler.ts';
import { errorBody, jsonResponse } from '../../shared/http/response.ts';
import { routes, type RouteDefinition } from '../../shared/routes.ts';
import { lambdaContext, toApiGatewayEvent } from './api-gateway-event.ts';
import { demandReverification, REVERIFICATION_PATH } from './bank-controls.ts';
import type { SandboxBank } from './bank/sandbox-bank.ts';
import type { MercantilSimulator } from './mercantil/mercantil-simulator.ts';
import { listPagoMovil, PAGO_MOVIL_PAYMENTS_PATH, receivePagoMovil } from './mercantil/pago-movil-controls.ts';
import { injectStripeFault, STRIPE_FAULTS_PATH } from './stripe/stripe-controls.ts';
import type { StripeSimulator } from './stripe/stripe-simulator.ts';
import { RESEND_PATH, resendFromPage, sandboxPage } from './sandbox-page.ts';
import { sandboxPages } from './sandbox-pages.ts';
import { crossSiteRefusal } from './same-site.ts';
import { randomUUID } from 'node:crypto';
import { requestState } from '../../shared/http/request-state.ts';
import { DEFAULT_DOCS_BASE_URL, errorCodeOf, requestIdFor, withRequestId } from '../../shared/http/request-id.ts';
import { isApiAnswer, RequestLog, type RequestLogEntry } from './request-log.ts';
import { answerParserErrors, MAX_HEADER_BYTES, readBodyWithin, tooLargeBody, uriTooLong } from './transport-errors.ts';

const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** API Gateway itself refuses bodies over 10 MB; the sandbox stops reading far earlier. */
const MAX_READ_BYTES = 1024 * 1024;

interface CompiledRoute {
  id: string;
  definition: RouteDefinition;
  pattern: RegExp;
  parameterNames: string[];
  handler: LambdaHandler;
}

function compile(path: string): { pattern: RegExp; parameterNames: string[] } {
  const parameterNames: string[] = [];
  const source = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    parameterNames.push(name);
    return '([^/]+)';
  });
  return { pattern: new RegExp(`^${source}$`), parameterNames };
}

/** Imports every handler of the route manifest and builds it over the sandbox's dependencies. */
export async function loadRoutes(deps: AllDeps): Promise<CompiledRoute[]> {
  return Promise.all(
    Object.entries(routes).map(async ([id, definition]) => {
      const module = (await import(pathToFileURL(resolve(PROJECT_ROOT, definition.entry)).href)) as { build(deps: AllDeps): LambdaHandler };
      return { id, definition, ...compile(definition.path), handler: module.build(deps) };
    }),
  );
}

/**
 * A path parameter as the handler sees it: percent-decoded, or as sent when its encoding is broken (%E0%A4%A),
 * so that the handler's validation answers 400 instead of the decoder's URIError becoming a 500.
 */
function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Per request: its id (API Gateway's, picked on arrival) and what to do with its answer (id on it, log line). */
interface Exchange {
  apiRequestId: string;
  merchantId: string | null;
  answered(result: APIGatewayProxyResult): APIGatewayProxyResult;
}
const exchanges = new WeakMap<ServerResponse, Exchange>();

function send(res: ServerResponse, answer: APIGatewayProxyResult): void {
  const result = exchanges.get(res)?.answered(answer) ?? answer;
  res.writeHead(result.statusCode, result.headers as Record<string, string>);
  // A binary answer (a logo) comes base64-encoded, as API Gateway's Lambda proxy takes it and decodes it.
  res.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
}

/** The address a developer uses for a sandbox listening at `url`: localhost rather than the loopback address. */
export const publicOrigin = (url: string): string => url.replace('127.0.0.1', 'localhost');

export interface SandboxServer {
  url: string;
  server: Server;
  /** The recent API requests, for the activity page. */
  requests: RequestLog;
  close(): Promise<void>;
}

/**
 * The sandbox's HTTP front: routes /v1 requests to the same handlers as API Gateway would, with the same event
 * shape, and adds the sandbox-only clock control.
 */
export async function startSandboxServer({
  deps,
  clock,
  port = 0,
  host = '127.0.0.1',
  onRequest,
  bank,
  stripe,
  mercantil,
}: {
  deps: AllDeps;
  clock: OffsetClock;
  port?: number;
  host?: string;
  /** Called with every API request once answered (npm start prints it). */
  onRequest?: (entry: RequestLogEntry) => void;
  /** The simulated OTP bank, for its sandbox-only control (bank-controls.ts). */
  bank?: Pick<SandboxBank, 'demandReverification'>;
  /** The Stripe simulator, for its sandbox-only fault control (stripe/stripe-controls.ts). */
  stripe?: Pick<StripeSimulator, 'injectFault'>;
  /** The Mercantil simulator, for its pago móvil ledger (mercantil/pago-movil-controls.ts) and the activity page. */
  mercantil?: Pick<MercantilSimulator, 'pagoMovil'>;
}): Promise<SandboxServer> {
  const compiled = await loadRoutes(deps);
  const requests = new RequestLog();
  // Set once listening: the address its pages (the docs' links and examples) name.
  let listeningUrl = '';
  const pages = sandboxPages(() => publicOrigin(listeningUrl));
  // Read at each answer: the sandbox knows its own docs address (its port) only once listening.
  const docsBaseUrl = () => deps.config.docsBaseUrl ?? DEFAULT_DOCS_BASE_URL;
  /** Every answer, the sandbox's own (404, 405, 413, clock) as well as the handlers', carries the request's id. */
  const exchangeOf = (req: IncomingMessage): Exchange => {
    const at = new Date(clock.now()).toISOString();
    const started = performance.now();
    const apiRequestId = randomUUID();
    const requestId = requestIdFor(apiRequestId);
    const exchange: Exchange = {
      apiRequestId,
      merchantId: null,
      answered(result) {
        const answer = withRequestId(result, requestId, docsBaseUrl());
        if (isApiAnswer(answer.statusCode, answer.headers?.['Content-Type'] as string | undefined)) {
          const entry = { at, method: req.method ?? 'GET', path: req.url ?? '/', status: answer.statusCode, requestId, code: errorCodeOf(answer), durationMs: Math.round(performance.now() - started), merchantId: exchange.merchantId };
          requests.add(entry);
          onRequest?.(entry);
        }
        return answer;
      },
    };
    return exchange;
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
    // The checkout's countdown reads the server's time from Date: in the sandbox, that is the sandbox clock.
    res.setHeader('Date', new Date(clock.now()).toUTCString());
    const body = await readBodyWithin(req, MAX_READ_BYTES);
    if (body === null) return send(res, tooLargeBody());
    const longUrl = uriTooLong(req);
    if (longUrl) return send(res, longUrl);

    // The controls that change state: JSON from the developer's tools, or the activity page's own form.
    if (url.pathname === '/__sandbox/clock' && req.method === 'POST') {
      return send(res, crossSiteRefusal(req, { json: true }) ?? advanceClock(clock, body));
    }
    if (bank && url.pathname === REVERIFICATION_PATH && req.method === 'POST') return send(res, crossSiteRefusal(req, { json: true }) ?? demandReverification(bank, body));
    if (stripe && url.pathname === STRIPE_FAULTS_PATH && req.method === 'POST') return send(res, crossSiteRefusal(req, { json: true }) ?? injectStripeFault(stripe, body));
    if (mercantil && url.pathname === PAGO_MOVIL_PAYMENTS_PATH) {
      if (req.method === 'POST') return send(res, crossSiteRefusal(req, { json: true }) ?? receivePagoMovil(mercantil.pagoMovil, clock, body));
      if (req.method === 'GET') return send(res, crossSiteRefusal(req, { json: false }) ?? listPagoMovil(mercantil.pagoMovil));
    }
    if (url.pathname === '/__sandbox/' && req.method === 'GET') return send(res, await sandboxPage(deps, url.searchParams, clock.now(), requests.recent(), mercantil?.pagoMovil));
    const resend = req.method === 'POST' ? RESEND_PATH.exec(url.pathname) : null;
    if (resend) return send(res, crossSiteRefusal(req, { json: false }) ?? (await resendFromPage(deps, resend[1]!, body, req.headers['sec-fetch-site'] as string | undefined)));
    const page = pages(req.method ?? 'GET', url.pathname);
    if (page) return send(res, page);

    const onPath = compiled.map((r) => ({ r, m: r.pattern.exec(url.pathname) })).filter((x) => x.m);
    const hit = onPath.find((x) => x.r.definition.method === req.method);
    if (!hit) {
      return send(
        res,
        onPath.length > 0
          ? jsonResponse(405, errorBody(405, 'method_not_allowed', `${req.method} is not allowed on ${url.pathname}.`), { Allow: onPath.map((x) => x.r.definition.method).join(', ') })
          : jsonResponse(404, errorBody(404, 'route_not_found', `No route for ${req.method} ${url.pathname}.`)),
      );
    }
    const pathParameters = hit.r.parameterNames.length
      ? Object.fromEntries(hit.r.parameterNames.map((name, i) => [name, decodePathSegment(hit.m![i + 1]!)]))
      : null;
    const exchange = exchanges.get(res)!;
    const event = toApiGatewayEvent(req, url, body, { resource: hit.r.definition.path, pathParameters }, clock.now(), exchange.apiRequestId);
    const context = lambdaContext(hit.r.id, event.requestContext.requestId);
    const result = await hit.r.handler(event, context);
    exchange.merchantId = requestState(context).auth?.merchant.id ?? null;
    send(res, result);
  };

  // Requests Node's parser refuses get the JSON error shape too (transport-errors.ts).
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => {
    exchanges.set(res, exchangeOf(req));
    handle(req, res).catch((error: unknown) => {
      deps.logger.error('Sandbox request failed', { error: error as Error });
      if (!res.headersSent) send(res, jsonResponse(500, errorBody(500, 'internal_error', 'An unexpected error occurred.')));
    });
  });
  answerParserErrors(server, docsBaseUrl);
  await new Promise<void>((r) => server.listen(port, host, r));
  const address = server.address() as AddressInfo;
  listeningUrl = `http://${host}:${address.port}`;
  return {
    url: listeningUrl,
    server,
    requests,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

function advanceClock(clock: OffsetClock, body: Buffer): APIGatewayProxyResult {
  let seconds: unknown;
  try {
    seconds = (JSON.parse(body.toString('utf8') || '{}') as { advanceSeconds?: unknown }).advanceSeconds;
  } catch {
    return jsonResponse(400, errorBody(400, 'invalid_json', 'The request body is not valid JSON.'));
  }
  if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds < 0 || seconds > 366 * 86_400) {
    return jsonResponse(400, errorBody(400, 'parameter_invalid', 'advanceSeconds must be a whole number of seconds from 0 to 31622400.', 'advanceSeconds'));
  }
  clock.advance(seconds * 1000);
  return jsonResponse(200, { now: new Date(clock.now()).toISOString(), offsetSeconds: Math.round(clock.offset / 1000) });
}
