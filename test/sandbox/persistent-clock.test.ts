import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PersistentOffsetClock } from '../../infra/sandbox/persistent-clock.ts';

const clockFile = () => join(mkdtempSync(join(tmpdir(), 'svc-clock-')), 'clock.json');

describe('PersistentOffsetClock', () => {
  it('starts at real time when nothing was saved', () => {
    const clock = PersistentOffsetClock.load(clockFile());
    expect(clock.offset).toBe(0);
  });

  it('keeps an advanced offset across a restart', () => {
    const file = clockFile();
    const before = PersistentOffsetClock.load(file);
    before.advance(3_600_000);
    before.advance(90_000);

    const restarted = PersistentOffsetClock.load(file);

    expect(restarted.offset).toBe(3_690_000);
    expect(restarted.now() - Date.now()).toBeGreaterThanOrEqual(3_690_000 - 50);
  });

  it('ignores a damaged or negative saved offset rather than failing the sandbox start', () => {
    const damaged = clockFile();
    writeFileSync(damaged, '{not json');
    const negative = clockFile();
    writeFileSync(negative, JSON.stringify({ offsetMs: -5 }));

    expect(PersistentOffsetClock.load(damaged).offset).toBe(0);
    expect(PersistentOffsetClock.load(negative).offset).toBe(0);
  });
});
