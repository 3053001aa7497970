import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy, { type MiddlewareObj } from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type * as z from 'zod';
import { depsFromEnvironment, type DepsOf, type PartsOf, type WiringOf } from '../deps.ts';
import type { RouteDefinition, RouteId } from '../routes.ts';
import type { ApiRequest, ApiResult, AuthOf } from './handler-types.ts';
import { auditUserChange } from './middlewares/audit-user-change.ts';
import { authenticate } from './middlewares/authenticate.ts';
import { authenticateCheckout } from './middlewares/authenticate-checkout.ts';
import { singleCredentials } from './middlewares/single-credentials.ts';
import { errorResponse } from './middlewares/error-response.ts';
import { idempotency } from './middlewares/idempotency.ts';
import { jsonBody } from './middlewares/json-body.ts';
import { rateLimit } from './middlewares/rate-limit.ts';
import { validateInput, type InputSchemas } from './middlewares/validate-input.ts';
import { requestState } from './request-state.ts';
import { clientAddress } from './client-address.ts';
import { DEFAULT_DOCS_BASE_URL, requestIdOf, withRequestId } from './request-id.ts';
import { bytesResponse, jsonResponse } from './response.ts';

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
export type LambdaHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
type HttpMiddleware = MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult>;

/** The input an operation validates; what it answers is declared for the OpenAPI document only (shared/openapi/operation-responses.ts). */
export type RouteSchemas = InputSchemas;

/** A route entry of the manifest (shared/route-manifest.ts), its literal type kept: it types the handler's deps and auth. */
export type RouteEntry = RouteDefinition & { id: RouteId };

export interface ApiHandlerModule<D = never> {
  /** Builds the handler over the given dependencies (the sandbox's, a test's): at least the parts its entry declares. */
  build(deps: D): LambdaHandler;
  /** The Lambda entry point: builds over the container's environment on first call. */
  handler: LambdaHandler;
  /** The schemas the operation validates its input with: the OpenAPI document describes the input from them. */
  schemas: RouteSchemas;
}

/**
 * One /v1 operation. Its manifest entry decides authentication, rate class, idempotency and the parts `deps` has
 * (shared/function-needs.ts PartGroupsOf); the schemas validate its input; `impl` holds only the operation's own logic;
 * the last argument passes the factory of each part the entry declares, and must name exactly those.
 * Middleware order: logging context, request id, one Authorization header, header normalisation, errors,
 * key (or user token), rate limit, audit, body, validation, idempotency (so an invalid request never claims a key).
 * Checkout routes authenticate and count after validation, because their caller is the session named in the input.
 *
 * @example
 * import * as manifest from '../../shared/route-manifest.ts';
 * export const { build, handler, schemas } = defineApiHandler(
 *   manifest.getSession,
 *   { params: SessionReferenceParamsSchema },
 *   async (req, deps) => ({ statusCode: 200, body: await findSession(deps, req.auth, req.params.reference) }),
 *   { userTokens: userTokensFromEnvironment },
 * );
 */
export function defineApiHandler<R extends RouteEntry, S extends RouteSchemas>(
  route: R,
  schemas: S,
  impl: (request: ApiRequest<Out<S['body']>, Out<S['query']>, Out<S['params']>, AuthOf<R>>, deps: DepsOf<R>) => Promise<ApiResult>,
  ...[factories]: WiringOf<R>
): ApiHandlerModule<DepsOf<R>> {
  const routeId = route.id;

  const build = (baseDeps: DepsOf<R>): LambdaHandler => {
    // Every line names its route; the Lambda request id, the request id (Request-Id) and the merchant are added per request.
    const deps = { ...baseDeps, logger: baseDeps.logger.createChild({ persistentKeys: { route: routeId } }) };
    const docsBaseUrl = deps.config.docsBaseUrl ?? DEFAULT_DOCS_BASE_URL;
    const chain = middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(injectLambdaContext(deps.logger, { resetKeys: true }) as HttpMiddleware)
      .use({ before: (request) => deps.logger.appendKeys({ requestId: requestIdOf(request.event, request.context) }) } as HttpMiddleware)
      .use(singleCredentials(route) as HttpMiddleware)
      .use(httpHeaderNormalizer() as HttpMiddleware)
      .use(errorResponse(deps.logger) as HttpMiddleware);
    const caller = () => {
      chain.use((route.auth === 'checkout' ? authenticateCheckout(deps, route) : authenticate(deps.authenticator, route)) as HttpMiddleware);
      if (route.rateClass) chain.use(rateLimit(deps.rateLimits, deps.clock, route.rateClass, deps.metrics) as HttpMiddleware);
    };
    // A checkout caller is known only from the session reference in the validated input.
    if (route.auth === 'secret' || route.auth === 'user') caller();
    if (route.audit) chain.use(auditUserChange(deps.audit, deps.clock, route.audit));
    if (schemas.body) for (const m of jsonBody(deps.config.maxBodyBytes)) chain.use(m as HttpMiddleware);
    chain.use(validateInput(schemas) as HttpMiddleware);
    if (route.auth === 'checkout') caller();
    if (route.idempotency !== 'none') chain.use(idempotency(deps.idempotency, deps.clock, route, route.cardData ? (deps as Partial<PartsOf<'crypto'>>).fingerprinter : undefined));

    const handler = chain.handler(async (event, context) => {
      const state = requestState(context);
      deps.logger.appendKeys({ merchantId: state.auth?.merchant.id });
      const result = await impl(
        {
          ...(state.input as { body: Out<S['body']>; query: Out<S['query']>; params: Out<S['params']> }),
          // Set by the authentication above, of the kind the route's `auth` names; absent on a public route.
          auth: state.auth as AuthOf<R>,
          now: deps.clock.now(),
          requestId: context.awsRequestId,
          idempotency: state.idempotency,
          client: { ipAddress: clientAddress(event), userAgent: event.requestContext?.identity?.userAgent ?? event.headers?.['user-agent'] ?? '' },
        },
        deps,
      );
      state.auditDetail = result.auditDetail;
      return result.bytes ? bytesResponse(result.statusCode, result.bytes, result.headers ?? {}) : jsonResponse(result.statusCode, result.body, result.headers);
    });
    // Outside the chain, so the id reaches every answer: success, error, and a replay the idempotency layer answers.
    return async (event, context) => withRequestId((await handler(event, context)) as APIGatewayProxyResult, requestIdOf(event, context), docsBaseUrl);
  };

  let lambda: LambdaHandler | undefined;
  return {
    build,
    schemas,
    handler: (event, context) => {
      // The factories are exactly those of the entry's part groups (WiringOf), so the deps have the parts DepsOf<R> names.
      lambda ??= build(depsFromEnvironment(factories ?? {}) as DepsOf<R>);
      return lambda(event, context);
    },
  };
}
