import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
/** Static imports and re-exports (`import type` included: a type is a dependency too), and dynamic imports. */
const SPECIFIERS = /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|(?:^|[\s;])import\s+['"]([^'"]+)['"]/g;

/** The repository modules `file` imports directly (relative specifiers; packages are not ours). */
function importsOf(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  return [...source.matchAll(SPECIFIERS)]
    .map((match) => match[1] ?? match[2] ?? match[3]!)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => resolve(dirname(file), specifier))
    .filter((path) => existsSync(path));
}

/** Every module reachable from `entries` through relative imports, each with the chain that reaches it. */
function reachable(entries: string[]): Map<string, string[]> {
  const chains = new Map<string, string[]>(entries.map((entry) => [entry, [entry]]));
  const pending = [...entries];
  while (pending.length > 0) {
    const file = pending.pop()!;
    for (const imported of importsOf(file)) {
      if (chains.has(imported)) continue;
      chains.set(imported, [...chains.get(file)!, imported]);
      pending.push(imported);
    }
  }
  return chains;
}

const storeModules = readdirSync(join(ROOT, 'shared/store'), { recursive: true, encoding: 'utf8' })
  .filter((name) => name.endsWith('.ts'))
  .map((name) => join(ROOT, 'shared/store', name));

/** The modules of `chains` under one of `folders`, each as its import chain from the entry. */
const under = (chains: Map<string, string[]>, folders: string[]) =>
  [...chains.entries()]
    .filter(([file]) => folders.some((folder) => relative(join(ROOT, folder), file).split(/[\\/]/)[0] !== '..'))
    .map(([, chain]) => chain.map((file) => relative(ROOT, file)).join(' -> '));

describe('store layering', () => {
  it('no shared/store module imports shared/dashboard or functions/, directly or through another module', () => {
    expect(storeModules.length).toBeGreaterThan(10);
    expect(under(reachable(storeModules), ['shared/dashboard', 'functions'])).toEqual([]);
  });

  it('the scan follows imports, type-only and multi-line ones included: a dashboard route reaches the store through it', () => {
    const chains = reachable([join(ROOT, 'functions/dashboard/list-payments.ts')]);
    expect(under(chains, ['shared/store'])).not.toEqual([]);
    // `import type { DashboardSession } from '../store/dashboard-session-store.ts'` is type-only.
    expect(importsOf(join(ROOT, 'shared/dashboard/dashboard-sessions.ts'))).toContain(join(ROOT, 'shared/store/dashboard-session-store.ts'));
  });
});
