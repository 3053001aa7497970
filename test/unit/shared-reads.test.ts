import { describe, expect, it } from 'vitest';
import { sharedRead } from '../../shared/background/shared-reads.ts';

describe('sharedRead', () => {
  const counting = () => {
    let reads = 0;
    const batch = {};
    const read = (key: string) => sharedRead(batch, key, async () => {
      const n = ++reads;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return `${key}:${n}`;
    });
    return { read, reads: () => reads };
  };

  it('gives calls made while a read of the same key is in progress its answer', async () => {
    const { read, reads } = counting();
    expect(await Promise.all([read('a'), read('a'), read('a')])).toEqual(['a:1', 'a:1', 'a:1']);
    expect(reads()).toBe(1);
  });

  it('reads afresh once the read settled, and apart for another key or another batch', async () => {
    const { read, reads } = counting();
    expect(await read('a')).toBe('a:1');
    expect(await read('a')).toBe('a:2');
    expect(await Promise.all([read('a'), read('b')])).toEqual(['a:3', 'b:4']);
    const other = counting();
    expect(await Promise.all([read('a'), other.read('a')])).toEqual(['a:5', 'a:1']);
    expect(reads()).toBe(5);
  });

  it('keeps no failure: the next call reads again', async () => {
    const batch = {};
    await expect(Promise.all([sharedRead(batch, 'k', () => Promise.reject(new Error('down'))), sharedRead(batch, 'k', () => Promise.resolve('never'))])).rejects.toThrow('down');
    expect(await sharedRead(batch, 'k', () => Promise.resolve('up'))).toBe('up');
  });
});
