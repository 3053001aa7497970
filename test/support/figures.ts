import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** git-ignored (test-artifacts/): the README's reliability section quotes these files. */
const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/reliability/', import.meta.url));

export type Figures = Record<string, number>;

/**
 * Prints one summary line for a suite and writes its figures to test-artifacts/reliability/<suite>.json, so a run's
 * numbers can be quoted without reading the console.
 *
 * @example
 * reportFigures('races', { racesRun: 120, bankCharges: 40 });
 */
export function reportFigures(suite: string, figures: Figures): void {
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(join(ARTIFACTS, `${suite}.json`), `${JSON.stringify({ suite, at: new Date().toISOString(), ...figures }, null, 2)}\n`);
  console.log(`[reliability] ${suite}: ${Object.entries(figures).map(([k, v]) => `${k}=${v}`).join(' ')}`);
}

/** A counter bag a suite fills as it goes and reports once in afterAll. */
export function figureCounter<K extends string>(...names: K[]): Record<K, number> {
  return Object.fromEntries(names.map((n) => [n, 0])) as Record<K, number>;
}
