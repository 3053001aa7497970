/**
 * `npm run --silent admin -- <command>`: the platform team's CLI. It parses arguments, calls the operations in
 * shared/admin/ and prints their result, as text or, with --json, as exactly one JSON object on stdout.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { AdminError } from '../shared/admin/errors.ts';
import { replayParkedRecord } from '../shared/admin/dead-letters.ts';
import { backfillPaymentEntries } from '../shared/admin/payment-entries-backfill.ts';
import { purgeUnkeyedFingerprints } from '../shared/admin/unkeyed-fingerprint-purge.ts';
import { createParkedRecords, type ParkedRecords } from '../shared/background/parked-records.ts';
import { ApiError } from '../shared/errors.ts';
import { loadBankCredentials } from '../shared/admin/bank-credentials.ts';
import { listKeys, revokeKey, rotateKey } from '../shared/admin/key-admin.ts';
import { createMerchant, KEY_PREFIX, requireMerchant, type AdminStores } from '../shared/admin/merchant-admin.ts';
import { describeMerchant, provisionMerchant, setBranding, setGateway, setPagoMovil, setRateLimit, setTestMode } from '../shared/admin/merchant-settings.ts';
import { PAGO_MOVIL_METHODS } from '../shared/domain/payment-method.ts';
import { DEFAULT_KEY_CACHE_TTL_MS, requireEnv } from '../shared/config.ts';
import { KEY_REVOCATION_BOUND_MS } from '../shared/auth/authenticator.ts';
import { createSecretBox } from '../shared/crypto/create-crypto.ts';
import { CryptoError } from '../shared/crypto/errors.ts';
import type { SecretBox } from '../shared/crypto/secret-box.ts';
import { CURRENCIES, GATEWAY_IDS, GATEWAYS, OPERATION_CLASSES, type GatewayId, type Merchant } from '../shared/domain/merchant.ts';
import { logoPath, publicBusinessName, type BrandingInput } from '../shared/domain/merchant-branding.ts';
import type { Mode } from '../shared/domain/session-state.ts';
import { createApiKeyStore, type ApiKeyRecord, type KeyKind } from '../shared/store/api-key-store.ts';
import { createDocumentClient } from '../shared/store/dynamo-client.ts';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createMerchantStore } from '../shared/store/merchant-store.ts';
import { adminSandboxEnvironment } from '../infra/sandbox/environment.ts';
import { systemClock } from '../shared/clock.ts';
import { createCognitoUserDirectory } from '../shared/dashboard/cognito-user-directory.ts';
import { sandboxUserDirectory } from '../shared/dashboard/local-user-directory.ts';
import { ROLES } from '../shared/domain/roles.ts';
import { decideTestModeRequest } from '../shared/dashboard/test-mode-admin.ts';
import { inviteUser } from '../shared/dashboard/user-admin.ts';
import type { UserDirectory } from '../shared/dashboard/user-directory.ts';
import { createTestModeRequestStore, type TestModeRequestStore } from '../shared/store/test-mode-request-store.ts';
import { createUserStore, type UserStore } from '../shared/store/user-store.ts';

const KINDS = Object.keys(KEY_PREFIX) as KeyKind[];
const MODES: readonly Mode[] = ['test', 'live'];

/**
 * When running API functions see a change, said only where they cache: in AWS a function keeps a key up to
 * KEY_REVOCATION_BOUND_MS and a merchant up to its key cache TTL (shared/auth/authenticator.ts). The sandbox of
 * `npm start` reads both on every request, so there a change applies at once and the CLI says nothing of it.
 */
function whenSeen({ aws }: Pick<Target, 'aws'>, change: 'merchant' | 'revocation' = 'merchant'): string {
  if (!aws) return '';
  return change === 'revocation'
    ? ` Running API functions refuse it within ${KEY_REVOCATION_BOUND_MS / 1000} s (their key cache).`
    : ` Running API functions see the change within ${DEFAULT_KEY_CACHE_TTL_MS / 1000} s (their merchant cache).`;
}

const USAGE = `Usage: npm run --silent admin -- <command> [options] [--json] [--aws]

Commands:
  merchant create --name <name> [--unprovisioned]
  merchant show --merchant <id>
  merchant provision --merchant <id>
  merchant branding --merchant <id> [--business-name <name>] [--logo <file.png|jpg|webp> | --no-logo]
  merchant gateway --merchant <id> --currency ${CURRENCIES.join('|')} --gateway ${GATEWAY_IDS.join('|')}
  merchant pago-movil --merchant <id> --method ${PAGO_MOVIL_METHODS.join('|')} --gateway <gateway> --phone <affiliated phone> --rif <RIF>
  keys rotate --merchant <id> --kind ${KINDS.join('|')} --mode ${MODES.join('|')}
  keys revoke --merchant <id> (--key <key> | --hash <sha256>)
  keys list --merchant <id>
  test-mode --merchant <id> --gateway ${GATEWAY_IDS.join('|')} (--on | --off)
  credentials load --merchant <id> --gateway ${GATEWAY_IDS.join('|')} --file <credentials.json>
  dead-letters list
  dead-letters replay --id <id>
  limits set --merchant <id> --class ${OPERATION_CLASSES.join('|')} --per-minute <n> --per-day <n>
  users create --merchant <id> --email <email> --role ${ROLES.join('|')}
  test-mode requests
  test-mode approve|refuse --merchant <id> --gateway ${GATEWAY_IDS.join('|')}
  payments backfill-index [--merchant <id>]
  idempotency purge-unkeyed

Without --aws it acts on the sandbox that runs with SANDBOX_DIR (default .sandbox): its DynamoDB Local and table
come from <SANDBOX_DIR>/sandbox.json, written by \`npm start\` (DYNAMODB_ENDPOINT or DYNAMODB_PORT and TABLE_NAME,
when given, win; the file's endpoint must be loopback, and the one in use is printed on stderr), its local keys from
<SANDBOX_DIR>/keys. With --aws it acts on the deployed
table: TABLE_NAME and AWS_REGION, SECRETS_KMS_KEY_ARN for \`credentials load\`, and USER_POOL_ID and
USER_POOL_CLIENT_ID (the stack's outputs) for \`users create\`, which then has Cognito email the invitation.
--json prints exactly one JSON object on stdout. Exit codes: 0 done, 1 refused or failed, 2 usage error.`;

class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;
type Options = NonNullable<ParseArgsConfig['options']>;

interface Target {
  stores: AdminStores;
  /** Built only for the command that needs it. */
  secretBox(): SecretBox;
  /** Dashboard users and their sign-in (Cognito with --aws, the sandbox's own without); built on use. */
  dashboardUsers(): { users: UserStore; userDirectory: UserDirectory };
  testModeRequests: TestModeRequestStore;
  parkedRecords: ParkedRecords;
  /** The table itself, for the one-off migrations that scan it (backfill-index, purge-unkeyed). */
  table: { db: DynamoDBDocumentClient; tableName: string };
  /** With --aws: a parked queue message is sent back to its SQS queue. */
  sendToQueue?: (queueUrl: string, body: string) => Promise<void>;
  where: string;
  /** With --aws: running API functions cache keys and merchants (the sandbox of `npm start` caches nothing). */
  aws: boolean;
  close(): void;
}

interface Command {
  synopsis: string;
  options: Options;
  run(values: Values, target: Target): Promise<{ json: object; text: string }>;
}

const merchantOption: Options = { merchant: { type: 'string' } };

const commands: Record<string, Command> = {
  'merchant create': {
    synopsis: 'merchant create --name <name> [--unprovisioned]',
    options: { name: { type: 'string' }, unprovisioned: { type: 'boolean' } },
    async run(values, { stores }) {
      const { merchant, keys } = await createMerchant(stores, { name: text(values, 'name'), now: new Date(), provisioned: !values.unprovisioned });
      return {
        json: { merchantId: merchant.id, name: merchant.name, provisioned: merchant.provisioned, testMode: merchant.testMode, ...keys },
        text: [
          `Merchant ${merchant.id} "${merchant.name}" created${merchant.provisioned ? '' : ' (not provisioned: sessions get 409 until `merchant provision`)'}.`,
          ...startingGateways(merchant),
          'These keys are shown once: store them now.',
          `  secret key (test):       ${keys.secretTest}`,
          `  publishable key (test):  ${keys.publishableTest}`,
          `  read-only key (test):    ${keys.restrictedTest}`,
          `  secret key (live):       ${keys.secretLive}`,
          `  publishable key (live):  ${keys.publishableLive}`,
          `  read-only key (live):    ${keys.restrictedLive}`,
        ].join('\n'),
      };
    },
  },
  'merchant show': {
    synopsis: 'merchant show --merchant <id>',
    options: merchantOption,
    async run(values, { stores }) {
      const overview = await describeMerchant(stores, text(values, 'merchant'));
      const { merchant, limits } = overview;
      const perGateway = (describe: (gateway: GatewayId) => string) => GATEWAY_IDS.map((g) => `${g}: ${describe(g)}`).join(', ');
      return {
        json: overview,
        text: [
          `Merchant ${merchant.id} "${merchant.name}"`,
          `  created      ${merchant.createdAt}`,
          `  checkout     "${publicBusinessName(merchant)}"${merchant.businessName ? '' : ' (no business name set)'}, ${merchant.logo ? `logo ${merchant.logo.contentType} ${merchant.logo.sizeBytes} bytes at ${logoPath(merchant.id, merchant.logo)}` : 'no logo'}`,
          `  provisioned  ${merchant.provisioned ? 'yes' : 'no'}`,
          `  gateways     ${Object.entries(merchant.gateways).map(([currency, g]) => `${currency}: ${g}`).join(', ')}`,
          `  pago móvil   ${merchant.pagoMovil ? `${Object.entries(merchant.pagoMovil.gateways).map(([method, g]) => `${method}: ${g}`).join(', ')}; phone ${merchant.pagoMovil.payee.phone}, RIF ${merchant.pagoMovil.payee.rif}` : 'not set up'}`,
          `  test mode    ${perGateway((g) => (merchant.testMode[g] ? 'on' : GATEWAYS[g].supportsTestMode ? 'off' : 'off (no test environment)'))}`,
          `  credentials  ${perGateway((g) => (merchant.credentialsLoaded[g] ? 'loaded' : 'not loaded'))}`,
          `  limits       ${OPERATION_CLASSES.map((c) => `${c} ${limits[c].perMinute}/min ${limits[c].perDay}/day${limits[c].overridden ? ' (override)' : ''}`).join(', ')}`,
          `Keys (${overview.keys.length})`,
          ...keyLines(overview.keys),
        ].join('\n'),
      };
    },
  },
  'merchant provision': {
    synopsis: 'merchant provision --merchant <id>',
    options: merchantOption,
    async run(values, target) {
      const merchant = await provisionMerchant(target.stores, text(values, 'merchant'));
      return { json: { merchantId: merchant.id, provisioned: merchant.provisioned }, text: `Merchant ${merchant.id} is provisioned.${whenSeen(target)}` };
    },
  },
  'merchant gateway': {
    synopsis: `merchant gateway --merchant <id> --currency ${CURRENCIES.join('|')} --gateway ${GATEWAY_IDS.join('|')}`,
    options: { ...merchantOption, currency: { type: 'string' }, gateway: { type: 'string' } },
    async run(values, target) {
      const [merchantId, currency, gateway] = [text(values, 'merchant'), oneOf(values, 'currency', CURRENCIES), oneOf(values, 'gateway', GATEWAY_IDS)];
      const merchant = await setGateway(target.stores, merchantId, currency, gateway);
      const credentials = merchant.credentialsLoaded[gateway] ? '' : ` Live charges need its credentials: credentials load --merchant ${merchantId} --gateway ${gateway} --file <credentials.json>.`;
      return {
        json: { merchantId, currency, gateway, credentialsLoaded: Boolean(merchant.credentialsLoaded[gateway]) },
        text: `New ${currency} sessions of ${merchantId} use ${gateway}; open sessions and stored cards keep their own gateway.${credentials}${whenSeen(target)}`,
      };
    },
  },
  'merchant pago-movil': {
    synopsis: `merchant pago-movil --merchant <id> --method ${PAGO_MOVIL_METHODS.join('|')} --gateway <gateway> --phone <affiliated phone> --rif <RIF>`,
    options: { ...merchantOption, method: { type: 'string' }, gateway: { type: 'string' }, phone: { type: 'string' }, rif: { type: 'string' } },
    async run(values, target) {
      const [merchantId, method, gateway] = [text(values, 'merchant'), oneOf(values, 'method', PAGO_MOVIL_METHODS), oneOf(values, 'gateway', GATEWAY_IDS)];
      const merchant = await setPagoMovil(target.stores, merchantId, method, gateway, { phone: text(values, 'phone'), rif: text(values, 'rif') });
      const credentials = merchant.credentialsLoaded[gateway] ? '' : ` Charges need its credentials: credentials load --merchant ${merchantId} --gateway ${gateway} --file <credentials.json>.`;
      return {
        json: { merchantId, method, gateway, payee: merchant.pagoMovil!.payee, credentialsLoaded: Boolean(merchant.credentialsLoaded[gateway]) },
        text: `New VES sessions of ${merchantId} take ${method} on ${gateway}, to ${merchant.pagoMovil!.payee.phone} (RIF ${merchant.pagoMovil!.payee.rif}).${credentials}${whenSeen(target)}`,
      };
    },
  },
  'merchant branding': {
    synopsis: 'merchant branding --merchant <id> [--business-name <name>] [--logo <file.png|jpg|webp> | --no-logo]',
    options: { ...merchantOption, 'business-name': { type: 'string' }, logo: { type: 'string' }, 'no-logo': { type: 'boolean' } },
    async run(values, target) {
      const merchantId = text(values, 'merchant');
      if (values.logo !== undefined && values['no-logo']) throw new UsageError('Give --logo or --no-logo, not both.');
      const input: BrandingInput = {};
      // Cleaned and checked by the store (1-80 characters after cleaning), so the CLI and the dashboard agree.
      if (typeof values['business-name'] === 'string') input.businessName = values['business-name'];
      if (values['no-logo']) input.logo = null;
      if (values.logo !== undefined) input.logo = { bytes: readFile(text(values, 'logo')) };
      if (Object.keys(input).length === 0) throw new UsageError('Give --business-name, --logo or --no-logo.');
      const merchant = await setBranding(target.stores, merchantId, input);
      const logoUrl = merchant.logo ? logoPath(merchant.id, merchant.logo) : null;
      return {
        json: { merchantId, businessName: publicBusinessName(merchant), logoUrl },
        text: `Buyers now see "${publicBusinessName(merchant)}"${logoUrl ? ` with the logo at ${logoUrl}` : ', without a logo'} on the checkout of ${merchantId}.${whenSeen(target)}`,
      };
    },
  },
  'keys rotate': {
    synopsis: `keys rotate --merchant <id> --kind ${KINDS.join('|')} --mode ${MODES.join('|')}`,
    options: { ...merchantOption, kind: { type: 'string' }, mode: { type: 'string' } },
    async run(values, { stores }) {
      const [merchantId, kind, mode] = [text(values, 'merchant'), oneOf(values, 'kind', KINDS), oneOf(values, 'mode', MODES)];
      const issued = await rotateKey(stores, merchantId, kind, mode, new Date());
      return {
        json: { merchantId, kind, mode, ...issued },
        text: `New ${kind} key (${mode}) for ${merchantId}, shown once:\n  ${issued.key}\nThe older keys stay valid until \`keys revoke\`.`,
      };
    },
  },
  'keys revoke': {
    synopsis: 'keys revoke --merchant <id> (--key <key> | --hash <sha256>)',
    options: { ...merchantOption, key: { type: 'string' }, hash: { type: 'string' } },
    async run(values, target) {
      const merchantId = text(values, 'merchant');
      if ((values.key === undefined) === (values.hash === undefined)) throw new UsageError('Give exactly one of --key and --hash.');
      const reference = values.key !== undefined ? { key: text(values, 'key') } : { keyHash: text(values, 'hash') };
      const record = await revokeKey(target.stores, merchantId, reference);
      return { json: { merchantId, keyHash: record.keyHash, hint: record.hint, status: record.status }, text: `Revoked ${record.hint}.${whenSeen(target, 'revocation')}` };
    },
  },
  'keys list': {
    synopsis: 'keys list --merchant <id>',
    options: merchantOption,
    async run(values, { stores }) {
      const merchantId = text(values, 'merchant');
      const keys = await listKeys(stores, merchantId);
      return { json: { merchantId, keys }, text: [`Keys of ${merchantId} (${keys.length})`, ...keyLines(keys)].join('\n') };
    },
  },
  'test-mode': {
    synopsis: `test-mode --merchant <id> --gateway ${GATEWAY_IDS.join('|')} (--on | --off)`,
    options: { ...merchantOption, gateway: { type: 'string' }, on: { type: 'boolean' }, off: { type: 'boolean' } },
    async run(values, target) {
      const [merchantId, gateway] = [text(values, 'merchant'), oneOf(values, 'gateway', GATEWAY_IDS)];
      if (Boolean(values.on) === Boolean(values.off)) throw new UsageError('Give exactly one of --on and --off.');
      const merchant = await setTestMode(target.stores, merchantId, gateway, Boolean(values.on));
      const on = Boolean(merchant.testMode[gateway]);
      return { json: { merchantId, gateway, testMode: on }, text: `Test mode is ${on ? 'on' : 'off'} for ${gateway} of ${merchantId}.${whenSeen(target)}` };
    },
  },
  'credentials load': {
    synopsis: `credentials load --merchant <id> --gateway ${GATEWAY_IDS.join('|')} --file <credentials.json>`,
    options: { ...merchantOption, gateway: { type: 'string' }, file: { type: 'string' } },
    async run(values, target) {
      const [merchantId, gateway, file] = [text(values, 'merchant'), oneOf(values, 'gateway', GATEWAY_IDS), text(values, 'file')];
      const content = new TextDecoder().decode(readFile(file));
      await loadBankCredentials({ ...target.stores, secretBox: target.secretBox() }, merchantId, gateway, content);
      return {
        json: { merchantId, gateway, credentialsLoaded: true },
        text: `Credentials for ${gateway} of ${merchantId} are stored, encrypted.${whenSeen(target)}`,
      };
    },
  },
  'limits set': {
    synopsis: `limits set --merchant <id> --class ${OPERATION_CLASSES.join('|')} --per-minute <n> --per-day <n>`,
    options: { ...merchantOption, class: { type: 'string' }, 'per-minute': { type: 'string' }, 'per-day': { type: 'string' } },
    async run(values, target) {
      const [merchantId, operationClass] = [text(values, 'merchant'), oneOf(values, 'class', OPERATION_CLASSES)];
      const limit = { perMinute: count(values, 'per-minute'), perDay: count(values, 'per-day') };
      await setRateLimit(target.stores, merchantId, operationClass, limit);
      return {
        json: { merchantId, class: operationClass, ...limit },
        text: `${operationClass} limit of ${merchantId}: ${limit.perMinute}/min, ${limit.perDay}/day.${whenSeen(target)}`,
      };
    },
  },
  'users create': {
    synopsis: `users create --merchant <id> --email <email> --role ${ROLES.join('|')}`,
    options: { ...merchantOption, email: { type: 'string' }, role: { type: 'string' } },
    async run(values, target) {
      const [merchantId, email, role] = [text(values, 'merchant'), text(values, 'email'), oneOf(values, 'role', ROLES)];
      await requireMerchant(target.stores.merchants, merchantId);
      const { user, temporaryPassword } = await inviteUser(target.dashboardUsers(), { merchantId, email, role, now: Date.now() });
      return {
        json: { user, ...(temporaryPassword && { temporaryPassword }) },
        text: [
          `Dashboard user ${user.id} <${user.email}> (${user.role}) created for ${merchantId}.`,
          temporaryPassword
            ? `Temporary password (shown once; the user chooses a new one at first sign-in): ${temporaryPassword}`
            : 'Cognito emails the invitation with a temporary password; the user chooses a new one at first sign-in.',
        ].join('\n'),
      };
    },
  },
  'test-mode requests': {
    synopsis: 'test-mode requests',
    options: {},
    async run(_values, { testModeRequests }) {
      const pending = await testModeRequests.listPending();
      return {
        json: { requests: pending },
        text: pending.length
          ? pending.map((r) => `  ${r.requestedAt}  ${r.merchantId}  ${r.gateway.padEnd(14)} ${r.enabled ? 'on ' : 'off'}  by ${r.requestedBy}`).join('\n')
          : 'No pending test-mode requests.',
      };
    },
  },
  'dead-letters list': {
    synopsis: 'dead-letters list',
    options: {},
    async run(_values, { parkedRecords }) {
      const parked = await parkedRecords.list();
      return {
        json: { parked: parked.map(({ record: _record, ...entry }) => entry) },
        text: parked.length
          ? parked.map((p) => `  ${p.parkedAt}  ${p.id}  ${p.attempts} tries  ${p.error.name}: ${p.error.message}`).join('\n') + '\nReplay one, once its cause is fixed: dead-letters replay --id <id>'
          : 'No parked records.',
      };
    },
  },
  'dead-letters replay': {
    synopsis: 'dead-letters replay --id <id>',
    options: { id: { type: 'string' } },
    async run(values, { parkedRecords, sendToQueue }) {
      const id = text(values, 'id');
      const { outcome, record } = await replayParkedRecord(parkedRecords, id, { sendToQueue, now: Date.now });
      if (outcome === 'failed-again') throw new AdminError(`Replay of ${id} failed again (${record.attempts} tries): ${record.error.name}: ${record.error.message}. It stays parked.`);
      return {
        json: { id, outcome },
        text: outcome === 'queued' ? `Parked message ${id} is back on its queue; its worker runs it as any other message.` : `Parked record ${id} was replayed successfully and removed.`,
      };
    },
  },
  'payments backfill-index': {
    synopsis: 'payments backfill-index [--merchant <id>]',
    options: merchantOption,
    async run(values, target) {
      const merchantId = values.merchant === undefined ? undefined : text(values, 'merchant');
      const result = await backfillPaymentEntries(target.table.db, target.table.tableName, { merchantId });
      return {
        json: result,
        text: `${result.examined} payments read, ${result.written} search entries created or completed. Safe to run again: entries already complete are left as they are.`,
      };
    },
  },
  'idempotency purge-unkeyed': {
    synopsis: 'idempotency purge-unkeyed',
    options: {},
    async run(_values, { table }) {
      const result = await purgeUnkeyedFingerprints(table.db, table.tableName);
      return {
        json: result,
        text: `${result.examined} idempotency records of card-data operations read, ${result.purged} unkeyed fingerprints replaced (docs/security.md, finding 1). Safe to run again.`,
      };
    },
  },
  'test-mode approve': decideCommand(true),
  'test-mode refuse': decideCommand(false),
};

/** Decides a merchant's pending test-mode request; an approval switches the gateway's test mode at once. */
function decideCommand(approve: boolean): Command {
  return {
    synopsis: `test-mode ${approve ? 'approve' : 'refuse'} --merchant <id> --gateway ${GATEWAY_IDS.join('|')}`,
    options: { ...merchantOption, gateway: { type: 'string' } },
    async run(values, target) {
      const [merchantId, gateway] = [text(values, 'merchant'), oneOf(values, 'gateway', GATEWAY_IDS)];
      const decided = await decideTestModeRequest(target, merchantId, gateway, approve, Date.now());
      const outcome = approve ? `approved: test mode is now ${decided.enabled ? 'on' : 'off'} for ${gateway}` : 'refused: test mode stays as it was';
      return { json: { request: decided }, text: `Request of ${merchantId} ${outcome}. The merchant sees it in the dashboard's settings.${whenSeen(target)}` };
    },
  };
}

const globalOptions: Options = { json: { type: 'boolean' }, aws: { type: 'boolean' } };

function text(values: Values, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required.`);
  return value.trim();
}

function oneOf<T extends string>(values: Values, name: string, allowed: readonly T[]): T {
  const value = text(values, name);
  if (!allowed.includes(value as T)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}; got "${value}".`);
  return value as T;
}

function count(values: Values, name: string): number {
  const value = text(values, name);
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number; got "${value}".`);
  return Number(value);
}

/** A file's bytes, or an AdminError naming why it cannot be read. */
function readFile(file: string): Uint8Array {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new AdminError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
  }
}

/**
 * What a new merchant starts on, per currency, and how to move it: a merchant created to be put on Mercantil or Stripe
 * reads that the default gateway is a starting point, not a choice already made for it.
 */
function startingGateways(merchant: Merchant): string[] {
  const lines = CURRENCIES.map((currency) => {
    const gateway = merchant.gateways[currency];
    const testMode = merchant.testMode[gateway] ? 'test mode on' : GATEWAYS[gateway].supportsTestMode ? 'test mode off' : 'no test environment: live keys only';
    const others = GATEWAY_IDS.filter((g) => g !== gateway && GATEWAYS[g].currency === currency);
    return `  ${currency} payments: ${gateway} (${testMode})${others.length ? `; also available: ${others.join(', ')}` : ''}`;
  });
  return [
    'It starts on the default gateways:',
    ...lines,
    `To use another: merchant gateway --merchant ${merchant.id} --currency <currency> --gateway <gateway>, then test-mode --on and credentials load for it (docs/connectors.md).`,
  ];
}

function keyLines(keys: ApiKeyRecord[]): string[] {
  return keys.map((k) => `  ${k.hint.padEnd(16)} ${k.kind.padEnd(11)} ${k.mode.padEnd(4)} ${k.status.padEnd(7)} ${k.createdAt}  ${k.keyHash}`);
}

function openTarget(aws: boolean): Target {
  if (aws) {
    const tableName = requireEnv('TABLE_NAME');
    const region = requireEnv('AWS_REGION');
    const db = createDocumentClient({ tableName, region });
    return {
      stores: { merchants: createMerchantStore(db, tableName), apiKeys: createApiKeyStore(db, tableName) },
      secretBox: () => createSecretBox({ secretsKmsKeyArn: requireEnv('SECRETS_KMS_KEY_ARN') }),
      dashboardUsers: () => ({
        users: createUserStore(db, tableName),
        userDirectory: createCognitoUserDirectory({ userPoolId: requireEnv('USER_POOL_ID'), clientId: requireEnv('USER_POOL_CLIENT_ID') }),
      }),
      testModeRequests: createTestModeRequestStore(db, tableName),
      parkedRecords: createParkedRecords(db, tableName),
      table: { db, tableName },
      sendToQueue: async (queueUrl, body) => {
        const { SQSClient, SendMessageCommand } = await import('@aws-sdk/client-sqs');
        await new SQSClient({ region }).send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body }));
      },
      where: `table ${tableName} in ${region}`,
      aws: true,
      close: () => db.destroy(),
    };
  }
  const env = adminSandboxEnvironment();
  // On stderr, so --json keeps stdout one object: the operator sees where a database they did not name is.
  if (env.endpointSource !== 'environment') process.stderr.write(`Sandbox: table ${env.tableName} at ${env.dynamoEndpoint} (from ${env.endpointSource === 'default' ? 'the defaults' : join(env.dataDir, 'sandbox.json')}).\n`);
  const db = createDocumentClient({ tableName: env.tableName, endpoint: env.dynamoEndpoint });
  return {
    stores: { merchants: createMerchantStore(db, env.tableName), apiKeys: createApiKeyStore(db, env.tableName) },
    secretBox: () => createSecretBox({ localKeyDir: env.keyDir }),
    dashboardUsers: () => ({
      users: createUserStore(db, env.tableName),
      userDirectory: sandboxUserDirectory({ db, tableName: env.tableName, keyDir: env.keyDir, clock: systemClock }),
    }),
    testModeRequests: createTestModeRequestStore(db, env.tableName),
    parkedRecords: createParkedRecords(db, env.tableName),
    table: { db, tableName: env.tableName },
    where: `table ${env.tableName} at ${env.dynamoEndpoint} (is the sandbox running? \`npm start\`)`,
    aws: false,
    close: () => db.destroy(),
  };
}

/** What went wrong, in one line: the platform team needs the cause, never a stack trace. */
function failureMessage(error: unknown, target: Target | undefined): string {
  if (error instanceof AdminError || error instanceof CryptoError || error instanceof ApiError) return error.message;
  const { name, message, code } = error as Error & { code?: string };
  if (name === 'ResourceNotFoundException') return `The table does not exist: ${target?.where ?? ''}.`;
  if (code === 'ECONNREFUSED' || /ECONNREFUSED/.test(message)) return `Cannot reach DynamoDB: ${target?.where ?? ''}.`;
  return name === 'Error' ? message : `${name}: ${message}`;
}

async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const pair = `${argv[0]} ${argv[1] ?? ''}`;
  const [name, rest] = pair in commands ? [pair, argv.slice(2)] : [argv[0]!, argv.slice(1)];
  const command = commands[name];
  let target: Target | undefined;
  try {
    if (!command) throw new UsageError(`Unknown command "${pair.trim()}".`);
    let values: Values;
    try {
      ({ values } = parseArgs({ args: rest, options: { ...command.options, ...globalOptions }, strict: true, allowPositionals: false }));
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    target = openTarget(Boolean(values.aws));
    const result = await command.run(values, target);
    process.stdout.write(`${values.json ? JSON.stringify(result.json) : result.text}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      const usage = command ? `Usage: npm run --silent admin -- ${command.synopsis} [--json] [--aws]` : USAGE;
      process.stderr.write(`Error: ${error.message}\n\n${usage}\n`);
      return 2;
    }
    process.stderr.write(`Error: ${failureMessage(error, target)}\n`);
    return 1;
  } finally {
    target?.close();
  }
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
