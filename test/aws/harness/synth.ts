import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ACCOUNT, REGION, type CfnTemplate } from './template.ts';

const run = promisify(execFile);
const PROJECT_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The app's dev stage as `cdk deploy` would ship it: the CLI's synth (cdk.json's app, cdk-nag included) into a temporary cdk.out. */
export async function synthesize(): Promise<string> {
  const outdir = mkdtempSync(join(tmpdir(), 'aws-harness-cdk-out-'));
  const bin = join(PROJECT_ROOT, 'node_modules', '.bin');
  await run(join(bin, 'cdk'), ['synth', '--quiet', '--output', outdir, '-c', 'stage=dev', '-c', `account=${ACCOUNT}`, '-c', `region=${REGION}`], {
    cwd: PROJECT_ROOT,
    // An explicit account and region (infra/stage-config.ts requires them), as a deploy has them.
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, CDK_DEFAULT_ACCOUNT: ACCOUNT, CDK_DEFAULT_REGION: REGION },
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: { stderr?: string; message: string }) => {
    throw new Error(`cdk synth failed:\n${error.stderr ?? error.message}`);
  });
  return outdir;
}

export function readTemplate(assemblyDir: string): CfnTemplate {
  const manifest = JSON.parse(readFileSync(join(assemblyDir, 'manifest.json'), 'utf8')) as { artifacts: Record<string, { type: string; properties?: { templateFile?: string } }> };
  const stacks = Object.values(manifest.artifacts).filter((a) => a.type === 'aws:cloudformation:stack');
  if (stacks.length !== 1) throw new Error(`Expected one stack in the assembly, found ${stacks.length}`);
  return JSON.parse(readFileSync(join(assemblyDir, stacks[0]!.properties!.templateFile!), 'utf8')) as CfnTemplate;
}
