/**
 * `npm start`: DynamoDB Local (persisted under .sandbox/), the table, one seeded merchant, and the API on localhost.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { GATEWAY_IDS } from '../shared/domain/merchant.ts';
import { seedSandboxAdmin, type SandboxAdmin } from '../shared/dashboard/sandbox-admin.ts';
import { startDynamoLocal } from '../infra/sandbox/dynamodb-local.ts';
import { PersistentOffsetClock } from '../infra/sandbox/persistent-clock.ts';
import { startSandbox } from '../infra/sandbox/sandbox.ts';
import { sandboxEnvironment, writeRunningSandbox } from '../infra/sandbox/environment.ts';
import { formatRequestLine } from '../infra/sandbox/request-log.ts';
import { seedSandboxMerchant } from '../infra/sandbox/seed-merchant.ts';
import { checkSandboxGatewayUrls } from '../infra/sandbox/gateway-urls.ts';

async function main() {
  // Before anything starts: a gateway URL that would send test traffic out of this machine stops the sandbox here.
  checkSandboxGatewayUrls(process.env);
  const env = sandboxEnvironment();
  mkdirSync(env.dataDir, { recursive: true });
  const dynamo = await startDynamoLocal({ port: env.dynamoPort, dbPath: join(env.dataDir, 'dynamodb') });
  const clock = PersistentOffsetClock.load(join(env.dataDir, 'clock.json'));
  const sandbox = await startSandbox({
    dynamoEndpoint: dynamo.endpoint,
    tableName: env.tableName,
    port: env.port,
    host: env.host,
    keyDir: env.keyDir,
    clock,
    logLevel: 'INFO',
    docsBaseUrl: env.docsBaseUrl,
    // Keys and merchants read on every request: an admin CLI change applies at once (the CLI says so only with --aws).
    keyCacheTtlMs: 0,
    // One line per API request, to quote its id or see its error code without opening the activity page.
    onRequest: (entry) => console.log(formatRequestLine(entry)),
  });

  const seeded = await seedSandboxMerchant(sandbox.deps, join(env.dataDir, 'merchant.json'), new Date(sandbox.clock.now()));
  const dashboardAdmin = await seedSandboxAdmin({ users: sandbox.deps.users, userDirectory: sandbox.userDirectory }, seeded.merchantId, join(env.dataDir, 'dashboard-admin.json'), sandbox.clock.now());

  const api = sandbox.url.replace('127.0.0.1', 'localhost');
  // The admin CLI reads it to act on this sandbox's table whatever its ports (docs/operations.md).
  const running = writeRunningSandbox(env.dataDir, { url: api, dynamoEndpoint: dynamo.endpoint, tableName: env.tableName });
  console.log(`
svc sandbox is running.
${simulationNote(sandbox.deps.config.simulatedGateways ?? [])}

  API:       ${api}/v1
  Checkout:  ${api}/checkout?session=<reference>
  Docs:      ${api}/docs/   (every error's docUrl opens its entry here)
  OpenAPI:   ${api}/v1/openapi.json   (interactive reference: ${api}/docs/openapi/)
  Activity:  ${api}/__sandbox/?merchant=${seeded.merchantId}   (recent sessions, transactions, webhooks)
  DynamoDB:  ${dynamo.endpoint} (table ${env.tableName}, data in ${env.dataDir}/)

  Merchant ${seeded.merchantId}
    secret key (test):     ${seeded.keys.secretTest}
    publishable key (test): ${seeded.keys.publishableTest}
    read-only key (test):  ${seeded.keys.restrictedTest}
    secret key (live):     ${seeded.keys.secretLive}

  Dashboard: ${api}/dashboard/
    admin:     ${dashboardAdmin.email}
${dashboardAdminPassword(dashboardAdmin, env.dataDir)}
    (more users: npm run --silent admin -- users create --merchant ${seeded.merchantId} --email <email> --role admin|developer|read_only)

  Try it:
    curl -s ${api}/v1/sessions -H "Authorization: Bearer ${seeded.keys.secretTest}" \\
      -H "Content-Type: application/json" -d '{"amountMinor":1050,"currency":"VES","description":"Pedido 42"}'

  Move the sandbox clock: curl -s -X POST ${api}/__sandbox/clock -H "Content-Type: application/json" -d '{"advanceSeconds":300}'
  Stop with Ctrl+C.
`);

  const shutdown = async () => {
    // First: a stopped sandbox leaves no file naming its (soon free) DynamoDB port.
    running.remove();
    await sandbox.stop();
    await dynamo.stop();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

/** The seeded admin's password line: the temporary one until the admin chooses theirs, then how to get a new one. */
function dashboardAdminPassword(admin: SandboxAdmin, dataDir: string): string {
  if (!admin.temporary) return `    password:  the one you chose (forgot it? delete ${join(dataDir, 'dashboard-admin.json')} and start again for a temporary one)`;
  return `    password:  ${admin.password}   (temporary: the first sign-in asks you to choose your own, then to set up
               two-step verification with an authenticator app, which every admin must use)`;
}

/** What the sandbox's networks are: simulators, live mode included, unless a GATEWAY_*_URL sent one elsewhere. */
function simulationNote(simulated: readonly string[]): string {
  const elsewhere = GATEWAY_IDS.filter((id) => !simulated.includes(id));
  if (elsewhere.length === 0) return 'Every network here is simulated, live mode included: no real bank or Stripe is called and no real money moves.';
  return `Every network here is simulated, live mode included, except ${elsewhere.join(', ')}: GATEWAY_*_URL sends that traffic elsewhere (docs/connectors.md).`;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
