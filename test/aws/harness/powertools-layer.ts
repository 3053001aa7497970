import { cpSync } from 'node:fs';
import { join } from 'node:path';
import type { CfnTemplate } from './template.ts';

/**
 * The layers a function of the template attaches, from their cdk.out assets: each layer's `nodejs/node_modules`
 * copied into `<dir>/node_modules` (as Lambda extracts a layer; a link would not do, the functions run as a user who
 * cannot read cdk.out), the parent of the function's task root, where ES module resolution finds them as Lambda's
 * runtime finds them in /opt/nodejs/node_modules. A layer that is not a LayerVersion of the template
 * with an asset fails the function's start, as an unknown layer fails its deployment.
 */
export function provideLayers(layers: unknown[], template: CfnTemplate, assemblyDir: string, dir: string): void {
  for (const layer of layers) {
    const logicalId = (layer as { Ref?: string }).Ref;
    const resource = logicalId ? template.Resources[logicalId] : undefined;
    const asset = resource?.Type === 'AWS::Lambda::LayerVersion' ? (resource.Metadata?.['aws:asset:path'] as string | undefined) : undefined;
    if (!asset) throw new Error(`Layer ${JSON.stringify(layer)} is not a layer version of the template with a cdk.out asset`);
    cpSync(join(assemblyDir, asset, 'nodejs', 'node_modules'), join(dir, 'node_modules'), { recursive: true });
  }
}
