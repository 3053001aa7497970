import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Git-ignored (under node_modules), written at synth; the same files every time, so bundles stay reproducible. */
const SHIM_DIR = fileURLToPath(new URL('../../node_modules/.cache/builtin-requires/', import.meta.url));

/**
 * Defines `require` in an ES module bundle: a bundled CommonJS dependency calls it, which an ES module lacks; without
 * it such a bundle fails at import ("Dynamic require of ... is not supported").
 */
export const REQUIRE_BANNER = "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

/**
 * The Node.js built-ins the functions and the Powertools layer import. A bundle test fails on an ES import of any
 * other, so a new one is added here.
 */
export const BUILTINS_BY_REQUIRE = [
  ...['assert', 'async_hooks', 'console', 'crypto', 'dgram', 'diagnostics_channel', 'dns', 'events', 'fs', 'fs/promises'],
  ...['http', 'https', 'module', 'net', 'os', 'path', 'querystring', 'stream', 'timers', 'url', 'util'],
] as const;

/**
 * esbuild aliases that give the bundles each built-in through `require` (`process.getBuiltinModule`) instead of an
 * ES import, under both of its names (`http`, `node:http`). Why: for an ES import Node builds a facade of the module
 * that reads every export, getters included, so `node:http` loads undici for its lazy `WebSocket`, `node:crypto` its
 * Web Crypto, `node:fs` its promises API. Measured, 6 to 9 ms of each function's init (docs/benchmarks.md); `require`
 * reads only what the code uses.
 */
export function builtinRequireAliases(): Record<string, string> {
  mkdirSync(SHIM_DIR, { recursive: true });
  return Object.fromEntries(
    BUILTINS_BY_REQUIRE.flatMap((name) => {
      const file = writeShim(name);
      return [
        [name, file],
        [`node:${name}`, file],
      ];
    }),
  );
}

function writeShim(name: string): string {
  const file = join(SHIM_DIR, `${name.replace('/', '-')}.cjs`);
  const contents = `module.exports = process.getBuiltinModule('node:${name}');\n`;
  if (existsSync(file) && readFileSync(file, 'utf8') === contents) return file;
  // Written aside and renamed: test workers synthesizing side by side never read half a file.
  const partial = `${file}.${process.pid}`;
  writeFileSync(partial, contents);
  renameSync(partial, file);
  return file;
}
