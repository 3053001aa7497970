/** The synthesized CloudFormation template, read the way CloudFormation reads it (only what the harness needs). */

export interface CfnResource {
  Type: string;
  Properties?: Record<string, any>;
  Metadata?: Record<string, any>;
  DependsOn?: string | string[];
}

export interface CfnTemplate {
  Parameters?: Record<string, { Type: string; Default?: string }>;
  Resources: Record<string, CfnResource>;
}

export const REGION = 'us-east-1';
/** The account synth is given (CDK_DEFAULT_ACCOUNT) and moto is started as (MOTO_ACCOUNT_ID). */
export const ACCOUNT = '000000000000';

/** How the local "deployment" answers Ref and Fn::GetAtt for each resource: CloudFormation's physical ids. */
export interface PhysicalIds {
  ref(logicalId: string): string;
  getAtt(logicalId: string, attribute: string): string;
  parameter(name: string): string;
}

export const resourcesOfType = (template: CfnTemplate, type: string) =>
  Object.entries(template.Resources).filter(([, r]) => r.Type === type) as [string, CfnResource & { Properties: Record<string, any> }][];

/**
 * Resolves CloudFormation's intrinsic functions in `value` against the local resources. A reference to something
 * the template lacks throws: a function whose variable names a missing resource must fail, not get a placeholder.
 */
export function resolveValue(value: unknown, ids: PhysicalIds, template: CfnTemplate): any {
  if (Array.isArray(value)) return value.map((v) => resolveValue(v, ids, template));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  if (entries.length !== 1 || !entries[0]![0].startsWith('Fn::') && entries[0]![0] !== 'Ref') {
    return Object.fromEntries(entries.map(([k, v]) => [k, resolveValue(v, ids, template)]));
  }
  const [fn, arg] = entries[0]! as [string, any];
  const again = (v: unknown) => resolveValue(v, ids, template);
  switch (fn) {
    case 'Ref':
      return ref(arg as string, ids, template);
    case 'Fn::GetAtt': {
      const [id, attribute] = Array.isArray(arg) ? arg : String(arg).split('.');
      if (!template.Resources[id]) throw new Error(`Fn::GetAtt of ${id}.${attribute}: no such resource in the template`);
      return ids.getAtt(id, attribute);
    }
    case 'Fn::Join': {
      const [separator, parts] = arg as [string, unknown[]];
      return (again(parts) as unknown[]).join(separator);
    }
    case 'Fn::Select': {
      const [index, list] = arg as [number, unknown];
      return (again(list) as unknown[])[Number(again(index))];
    }
    case 'Fn::Split': {
      const [separator, source] = arg as [string, unknown];
      return String(again(source)).split(separator);
    }
    case 'Fn::Sub': {
      const [text, variables = {}] = (Array.isArray(arg) ? arg : [arg, {}]) as [string, Record<string, unknown>];
      return text.replace(/\$\{([^}]+)\}/g, (_, name: string) => {
        if (name in variables) return String(again(variables[name]));
        if (name.includes('.')) return ids.getAtt(name.split('.')[0]!, name.split('.').slice(1).join('.'));
        return ref(name, ids, template);
      });
    }
    case 'Fn::ImportValue':
      throw new Error(`Fn::ImportValue ${JSON.stringify(arg)}: the stack imports from another stack, which the harness does not deploy`);
    default:
      throw new Error(`Intrinsic ${fn} is not supported by the harness`);
  }
}

function ref(name: string, ids: PhysicalIds, template: CfnTemplate): string {
  const pseudo: Record<string, string> = {
    'AWS::Region': REGION,
    'AWS::AccountId': ACCOUNT,
    'AWS::Partition': 'aws',
    'AWS::URLSuffix': 'amazonaws.com',
    'AWS::StackName': 'svc-payments-local',
    'AWS::StackId': `arn:aws:cloudformation:${REGION}:${ACCOUNT}:stack/svc-payments-local/6f1b7a90-0c3e-11f1-9a4e-0a1b2c3d4e5f`,
    'AWS::NoValue': '',
  };
  if (name in pseudo) return pseudo[name]!;
  if (template.Parameters?.[name]) return ids.parameter(name);
  if (!template.Resources[name]) throw new Error(`Ref ${name}: no such resource or parameter in the template`);
  return ids.ref(name);
}
