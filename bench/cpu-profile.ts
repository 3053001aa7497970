import type { Profiler } from 'node:inspector';
import { Session } from 'node:inspector/promises';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECT_ROOT = fileURLToPath(new URL('../', import.meta.url));

export interface ProfileEntry {
  /** Function and place, or package / area for the grouped view. */
  name: string;
  selfMs: number;
  /** Share of all sampled time, idle included. */
  share: number;
}

export interface CpuProfileSummary {
  topFunctions: ProfileEntry[];
  /** Self time grouped by where the code lives: a package, node internals, our code, GC, idle. */
  topAreas: ProfileEntry[];
}

/** Runs `work` under the in-process V8 sampling profiler (node:inspector): it sees this process only, not DynamoDB Local. */
export async function profileCpu<T>(work: () => Promise<T>, samplingIntervalUs = 500): Promise<{ result: T; profile: Profiler.Profile }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: samplingIntervalUs });
  await session.post('Profiler.start');
  try {
    const result = await work();
    const { profile } = await session.post('Profiler.stop');
    return { result, profile };
  } finally {
    session.disconnect();
  }
}

function areaOf(url: string, functionName: string): string {
  if (!url) return functionName || '(native)';
  if (url.startsWith('node:')) return 'node internals';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  const path = url.startsWith('file:') ? relative(PROJECT_ROOT, fileURLToPath(url)) : url;
  return path.split('/').slice(0, 2).join('/');
}

function placeOf(url: string, line: number): string {
  if (!url) return '';
  const path = url.startsWith('file:') ? relative(PROJECT_ROOT, fileURLToPath(url)) : url;
  return `${path.replace(/^.*node_modules\//, '')}:${line + 1}`;
}

/** Self time per function and per area, from the samples and their time deltas. */
export function summariseProfile(profile: Profiler.Profile, top = 12): CpuProfileSummary {
  const selfUs = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (deltas[i] ?? 0)));
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0) || 1;

  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  for (const node of profile.nodes) {
    const us = selfUs.get(node.id) ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    // The profiler's own work (handing the profile over when it stops) is not the service's.
    if (us === 0 || url === 'node:inspector') continue;
    const fn = `${functionName || '(anonymous)'} ${placeOf(url, lineNumber)}`.trim();
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
    const area = areaOf(url, functionName);
    byArea.set(area, (byArea.get(area) ?? 0) + us);
  }
  const ranked = (m: Map<string, number>) =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([name, us]) => ({ name, selfMs: us / 1000, share: us / total }));
  return { topFunctions: ranked(byFunction), topAreas: ranked(byArea) };
}
