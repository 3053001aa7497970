/**
 * Builds @svc/node from the typed client in shared/client: one ESM and one CommonJS bundle (no runtime
 * dependencies) and a self-contained dist/index.d.ts whose types are written out structurally by the TypeScript
 * checker, so a consumer needs neither zod nor this repository; and the `svc` CLI (cli/main.ts).
 */
import { build } from 'esbuild';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { declarationsOf } from './declarations.ts';

const packageDir = dirname(fileURLToPath(import.meta.url));
const entry = join(packageDir, '../../shared/client/index.ts');
// SVC_SDK_OUT: another folder, for a test that must not race the packing test's rebuild of dist/.
const dist = process.env.SVC_SDK_OUT ?? join(packageDir, 'dist');

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
for (const [format, file] of [['esm', 'index.mjs'], ['cjs', 'index.cjs']] as const) {
  await build({ entryPoints: [entry], outfile: join(dist, file), bundle: true, platform: 'node', target: 'node20', format, logLevel: 'warning' });
}
writeFileSync(join(dist, 'index.d.ts'), declarationsOf(entry));
// The svc CLI (the package's bin): ESM, run by Node.js itself.
await build({
  entryPoints: [join(packageDir, 'cli/main.ts')],
  outfile: join(dist, 'cli.mjs'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  banner: { js: '#!/usr/bin/env node' },
  logLevel: 'warning',
});
console.log(`built ${dist}`);
