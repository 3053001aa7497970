import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECT_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const OLD_SDK_SPEC = fileURLToPath(new URL('../old-sdk/', import.meta.url));
/** Git-ignored (under node_modules), reinstalled when the pinned lock file changes. */
const OLD_SDK_HOME = join(PROJECT_ROOT, 'node_modules', '.cache', 'aws-harness-old-sdk');

/**
 * The AWS SDK v3 the bundles get from outside, as the Lambda runtime supplies it (the functions leave `@aws-sdk/*`
 * external): `lockfile` is the project's own (package-lock.json), `runtime` an older v3 release pinned in
 * test/aws/old-sdk, of the kind a Node.js 22 runtime image carries.
 */
export type SdkVariant = 'lockfile' | 'runtime';

export interface SdkLayer {
  variant: SdkVariant;
  /** The `@aws-sdk` folder to link beside the task root, where ES module resolution finds it. */
  scopeDir: string;
  /** Versions of the layer's packages: the User-Agent of every recorded call names one of them. */
  versions: Set<string>;
}

export function sdkLayer(variant: SdkVariant): SdkLayer {
  const home = variant === 'lockfile' ? PROJECT_ROOT : ensureOldSdk();
  const scopeDir = join(home, 'node_modules', '@aws-sdk');
  // A client's User-Agent carries the version written into its build, which can lag its package.json (client-kms
  // 3.1162.0 says 3.1161.0): both count.
  const versions = new Set(
    readdirSync(scopeDir).flatMap((name) => {
      const own = (JSON.parse(readFileSync(join(scopeDir, name, 'package.json'), 'utf8')) as { version: string }).version;
      const built = join(scopeDir, name, 'dist-cjs', 'index.js');
      const embedded = existsSync(built) ? /var version = "(\d+\.\d+\.\d+)"/.exec(readFileSync(built, 'utf8'))?.[1] : undefined;
      return embedded ? [own, embedded] : [own];
    }),
  );
  return { variant, scopeDir, versions };
}

/** Installs the pinned older SDK with `npm ci` on first use (the npm registry is reachable from CI and developers' machines). */
export function ensureOldSdk(): string {
  const lock = readFileSync(join(OLD_SDK_SPEC, 'package-lock.json'), 'utf8');
  const installedLock = join(OLD_SDK_HOME, 'package-lock.json');
  const marker = join(OLD_SDK_HOME, 'node_modules', '.package-lock.json');
  if (!(existsSync(marker) && existsSync(installedLock) && readFileSync(installedLock, 'utf8') === lock)) {
    mkdirSync(OLD_SDK_HOME, { recursive: true });
    copyFileSync(join(OLD_SDK_SPEC, 'package.json'), join(OLD_SDK_HOME, 'package.json'));
    copyFileSync(join(OLD_SDK_SPEC, 'package-lock.json'), installedLock);
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts', '--prefix', OLD_SDK_HOME], { stdio: ['ignore', 'ignore', 'pipe'] });
  }
  return OLD_SDK_HOME;
}
