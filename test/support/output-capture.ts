import { startTestSandbox, type TestSandbox } from './sandbox.ts';

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

/**
 * A test sandbox whose loggers, and every child its workers make at start, write every level: a leak must not hide
 * behind the log level. Lambda's own log-level control (AWS_LAMBDA_LOG_LEVEL) overrides the test sandbox's SILENT.
 */
export async function startVerboseTestSandbox(options: Parameters<typeof startTestSandbox>[0]): Promise<TestSandbox> {
  process.env.AWS_LAMBDA_LOG_LEVEL = 'DEBUG';
  try {
    return await startTestSandbox(options);
  } finally {
    delete process.env.AWS_LAMBDA_LOG_LEVEL;
  }
}
