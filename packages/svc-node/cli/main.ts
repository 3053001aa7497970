/**
 * `svc`: the webhook loop from a terminal. `svc listen` relays the API's signed deliveries to a local receiver;
 * `svc trigger <type>` makes the real objects that emit an event. Bundled to dist/cli.mjs (the package's bin).
 */
import { parseArgs } from 'node:util';
import { createSvcClient } from '../../../shared/client/index.ts';
import { listen } from './listen.ts';
import { trigger, TRIGGERS } from './trigger.ts';

const USAGE = `usage:
  svc listen --forward-to <url> [--events a,b] [--api-key sk_test_...] [--api-url http://localhost:4010]
             [--port <relay port>] [--public-url https://<tunnel to the relay>]   (a deployed stack needs the latter)
  svc trigger <${Object.keys(TRIGGERS).join('|')}> [--api-key sk_test_...] [--api-url http://localhost:4010]
The key defaults to $SVC_SECRET_KEY, the API to $SVC_URL or http://localhost:4010.`;

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { 'forward-to': { type: 'string' }, port: { type: 'string' }, 'public-url': { type: 'string' }, events: { type: 'string' }, 'api-key': { type: 'string' }, 'api-url': { type: 'string' }, help: { type: 'boolean' } },
  });
  const [command, eventType] = positionals;
  const apiKey = values['api-key'] ?? process.env.SVC_SECRET_KEY;
  const apiUrl = values['api-url'] ?? process.env.SVC_URL ?? 'http://localhost:4010';
  if (values.help || !command) return void console.log(USAGE);
  if (!apiKey) throw new UsageError('a secret key is needed: --api-key sk_test_... or SVC_SECRET_KEY');
  const svc = createSvcClient({ baseUrl: apiUrl, secretKey: apiKey });
  if (command === 'listen') {
    const forwardTo = values['forward-to'];
    if (!forwardTo) throw new UsageError('--forward-to <url> is required');
    const events = values.events ? values.events.split(',').map((e) => e.trim()).filter(Boolean) : [];
    return listen({ svc, apiUrl, forwardTo, events, port: Number(values.port ?? 0), publicUrl: values['public-url'] });
  }
  if (command === 'trigger') {
    if (!eventType || !(eventType in TRIGGERS)) throw new UsageError(`trigger takes one of: ${Object.keys(TRIGGERS).join(', ')}`);
    return trigger(eventType as keyof typeof TRIGGERS, { svc, apiUrl });
  }
  throw new UsageError(`unknown command ${command}`);
}

class UsageError extends Error {}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) console.error(`svc: ${error.message}\n${USAGE}`);
  else console.error(`svc: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
