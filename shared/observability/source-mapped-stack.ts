/**
 * Stack traces told in the TypeScript sources, mapped when a log line carries one rather than at start-up. Node's
 * `--enable-source-maps` parses a bundle's whole map (about 350 KB of JSON) as the bundle loads: 6 to 9 ms of every
 * cold start (docs/benchmarks.md), for the rare error. Here the map beside a bundle (`index.mjs.map`) is read on the
 * first stack that names it, then kept. Frames of a file without a map beside it (the sandbox runs the sources) or
 * under node_modules (the layer's packages, dependencies) are left as they are.
 */
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

const maps = new Map<string, SourceMap | null>();

function sourceMapOf(file: string): SourceMap | null {
  let map = maps.get(file);
  if (map === undefined) {
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
    } catch {
      map = null;
    }
    maps.set(file, map);
  }
  return map;
}

/** A frame's position in a bundle: `file:///var/task/index.mjs:1:23456` (an ES module) or `/var/task/index.js:1:23456`. */
const BUNDLE_POSITION = /(file:\/\/\/[^\s():]+\.[cm]?js|\/[^\s():]+\.[cm]?js):(\d+):(\d+)/g;

/**
 * The stack with every position in a bundle that has a map replaced by its source's (the path as the map names it,
 * without the `../` that lead from the bundle's folder). Function names stay the bundle's (minified): the position
 * is what finds the line.
 *
 * @example
 * sourceMappedStack('Error: boom\n    at handler (file:///var/task/index.mjs:1:48211)');
 * // 'Error: boom\n    at handler (shared/payments/refunds.ts:42:11)'
 */
export function sourceMappedStack(stack: string): string {
  return stack.replace(BUNDLE_POSITION, (position, location: string, line: string, column: string) => {
    const file = location.startsWith('file:') ? fileURLToPath(location) : location;
    if (file.includes('/node_modules/')) return position;
    const origin = sourceMapOf(file)?.findOrigin(Number(line), Number(column));
    if (!origin || !('fileName' in origin)) return position;
    return `${origin.fileName.replace(/^(\.\.\/)+/, '')}:${origin.lineNumber}:${origin.columnNumber}`;
  });
}

/**
 * The error as the logger should format it: a copy whose stack is source-mapped (so the location Powertools reads
 * from it is too), with the same prototype, message, cause and own fields; the error itself if nothing maps.
 */
export function withSourceMappedStack(error: Error): Error {
  if (typeof error.stack !== 'string') return error;
  const stack = sourceMappedStack(error.stack);
  if (stack === error.stack) return error;
  const copy = Object.assign(Object.create(Object.getPrototypeOf(error) as object) as Error, error, { message: error.message, stack });
  if ('cause' in error) copy.cause = error.cause;
  return copy;
}
