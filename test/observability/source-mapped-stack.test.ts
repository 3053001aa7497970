import { build } from 'esbuild';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAMBDA_BUILD_OPTIONS } from '../../infra/function-bundles.ts';
import { sourceMappedStack } from '../../shared/observability/source-mapped-stack.ts';

const run = promisify(execFile);
const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** A fresh Node.js process loading a bundle: a second alone, far more on a loaded CI machine. */
const CHILD_TIMEOUT_MS = 120_000;

/** A handler whose charge throws on line 4, called on line 9; it logs the error with the service's logger and returns the raw stack. */
const HANDLER_SOURCE = `import { createLogger } from './shared/observability/logger.ts';

export function charge(): never {
  throw new Error('bank said no');
}

export function handler(): string | undefined {
  try {
    charge();
  } catch (error) {
    createLogger().error('Charge failed', error as Error);
    return (error as Error).stack;
  }
}
`;

describe('error stacks in a Lambda bundle', () => {
  let dir: string;
  beforeAll(async () => {
    // Two levels below the project, as a function's asset in cdk.out: the map names the sources from there.
    mkdirSync(join(PROJECT_ROOT, 'test-artifacts'), { recursive: true });
    dir = mkdtempSync(join(PROJECT_ROOT, 'test-artifacts', 'source-mapped-'));
    // As the functions are built (minified, linked map without sources), with the logger bundled in.
    await build({ ...LAMBDA_BUILD_OPTIONS, external: ['@aws-sdk/*'], stdin: { contents: HANDLER_SOURCE, resolveDir: PROJECT_ROOT, sourcefile: 'throwing-handler.ts', loader: 'ts' }, outfile: join(dir, 'index.mjs') });
  }, CHILD_TIMEOUT_MS);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('are logged in the TypeScript sources without --enable-source-maps, while the error itself keeps the bundle positions', async () => {
    const script = 'const { handler } = await import(process.argv[1]); console.log("RAW " + JSON.stringify(handler()));';
    const { stdout, stderr } = await run(process.execPath, ['--input-type=module', '-e', script, pathToFileURL(join(dir, 'index.mjs')).href], { env: { PATH: process.env.PATH } });
    // The logger writes errors to stderr.
    const lines = `${stdout}\n${stderr}`.split('\n').filter((l) => l.trim());
    const raw = JSON.parse(lines.find((l) => l.startsWith('RAW '))!.slice(4)) as string;
    const logged = JSON.parse(lines.find((l) => l.includes('Charge failed'))!) as { error: { location: string; stack: string; message: string } };
    // The control: Node itself, with no source maps enabled, names the minified bundle.
    expect(raw).toMatch(/index\.mjs:\d+:\d+/);
    expect(logged.error.message).toBe('bank said no');
    expect(logged.error.location).toBe('throwing-handler.ts:4');
    // Positions are the source's; function names stay the bundle's (minified).
    expect(logged.error.stack).toMatch(/at \w+ \(throwing-handler\.ts:4:\d+\)/);
    expect(logged.error.stack).toMatch(/throwing-handler\.ts:9:\d+/);
    expect(logged.error.stack).not.toMatch(/index\.mjs/);
  }, CHILD_TIMEOUT_MS);

  it('leaves frames as they are where no map lies beside the file, or under node_modules', () => {
    writeFileSync(join(dir, 'unmapped.mjs'), '');
    const stack = [
      'Error: boom',
      `    at handler (${pathToFileURL(join(dir, 'unmapped.mjs')).href}:1:200)`,
      '    at run (/work/app/shared/payments/refunds.ts:42:11)',
      '    at Object.<anonymous> (/opt/nodejs/node_modules/@aws-lambda-powertools/logger/index.mjs:1:99)',
    ].join('\n');
    expect(sourceMappedStack(stack)).toBe(stack);
  });
});
