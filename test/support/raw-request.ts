import type { TestResponse } from './sandbox.ts';

/**
 * A request with the body as bytes and the headers exactly as given: what TestSandbox.request cannot send
 * (invalid UTF-8, a wrong Content-Type, no Content-Type at all).
 *
 * @example
 * await rawRequest(sandbox.url, 'POST', '/v1/sessions', { headers: { 'content-type': 'text/plain' }, body: Buffer.from([0xc3, 0x28]) });
 */
export async function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  { headers = {}, body }: { headers?: Record<string, string>; body?: Uint8Array | string } = {},
): Promise<TestResponse> {
  // Copied into a plain ArrayBuffer view: fetch's types want one, whatever buffer the caller's bytes sit in.
  const payload = body === undefined || typeof body === 'string' ? body : new Uint8Array(body);
  const res = await fetch(`${baseUrl}${path}`, { method, headers, body: method === 'GET' ? undefined : (payload as BodyInit | undefined) });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** A manifest path with its {parameters} filled in, each percent-encoded unless `raw`. */
export function fillPath(path: string, values: Record<string, string>, { raw = false } = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for {${name}} in ${path}`);
    return raw ? value : encodeURIComponent(value);
  });
}
