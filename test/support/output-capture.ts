/**
 * Everything the process writes to stdout and stderr until `stop()`: where the Lambda handlers' logs go in the test
 * sandbox. Lines are still written through, so a failing run keeps its output.
 */
export function captureOutput() {
  const lines: string[] = [];
  const originals = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };
  const tap = (original: typeof process.stdout.write) =>
    ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      lines.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return (original as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stdout.write;
  process.stdout.write = tap(originals.out);
  process.stderr.write = tap(originals.err);
  return {
    lines,
    stop() {
      process.stdout.write = originals.out;
      process.stderr.write = originals.err;
    },
  };
}
