/** Per-test time limit of the reliability suites: generous on a shared 2-core CI machine, far longer in the soak. */
export const SUITE_TIMEOUT_MS = Number(process.env.RELIABILITY_TIMEOUT_MS ?? 180_000);
