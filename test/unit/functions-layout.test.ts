import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FUNCTIONS = join(ROOT, 'functions');

const modules = readdirSync(FUNCTIONS, { recursive: true, encoding: 'utf8' })
  .filter((path) => path.endsWith('.ts'))
  .map((path) => relative(ROOT, join(FUNCTIONS, path)))
  .sort();

describe('functions/', () => {
  it('holds Lambda entry points', () => {
    expect(modules.length).toBeGreaterThan(50);
  });

  // A helper shared by handlers belongs in shared/, beside the rules it serves: here it would read as a function.
  it.each(modules)('%s exports a handler', async (path) => {
    const module = (await import(/* @vite-ignore */ pathToFileURL(join(ROOT, path)).href)) as { handler?: unknown };
    expect(typeof module.handler).toBe('function');
  });
});
