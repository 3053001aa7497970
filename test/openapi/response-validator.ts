import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export interface CheckedResponse {
  status: number;
  body: unknown;
}

/**
 * Checks real answers against an OpenAPI 3.1 document: the path template and method must be documented, the status
 * must be one of the operation's responses, and the body must match that response's JSON Schema (2020-12, which is
 * what OpenAPI 3.1 schemas are). Returns the problems, [] when the answer is as documented.
 */
export function responseValidator(document: { paths: Record<string, Record<string, any>> }) {
  // strict off: the document carries OpenAPI keywords (example, paths...) that are not JSON Schema vocabulary.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema(document, 'openapi.json');
  const templates = Object.keys(document.paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }));

  return function problemsOf(method: string, url: string, response: CheckedResponse): string[] {
    const path = new URL(url, 'http://x').pathname;
    const template = templates.find((t) => t.pattern.test(path) && document.paths[t.template]![method.toLowerCase()])?.template;
    if (!template) return [`${method} ${path} is not in the document`];
    const responses = document.paths[template]![method.toLowerCase()].responses as Record<string, unknown>;
    if (!responses[String(response.status)]) return [`${method} ${template} answered ${response.status}, which is not documented`];
    const pointer = ['paths', template, method.toLowerCase(), 'responses', String(response.status), 'content', 'application/json', 'schema']
      .map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1'))
      .join('/');
    const validate = ajv.getSchema(`openapi.json#/${pointer}`);
    if (!validate) return [`no schema at ${pointer}`];
    if (validate(response.body)) return [];
    return (validate.errors ?? []).map((e) => `${method} ${template} ${response.status}: ${e.instancePath || '(body)'} ${e.message} ${JSON.stringify(e.params)}`);
  };
}
