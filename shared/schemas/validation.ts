import { distance } from 'fastest-levenshtein';
import type * as z from 'zod';
import { ValidationError, type FieldProblem } from '../errors.ts';

/** Where an input came from, for the field name in errors: body fields bare, others prefixed. */
export type InputLocation = 'body' | 'query' | 'path' | 'header';

export type InputCheck<T> = { ok: true; data: T } | { ok: false; problems: FieldProblem[] };

/**
 * Validates one part of a request. Each problem gets a machine code (parameter_missing, parameter_unknown or
 * parameter_invalid) and names its parameter; they are all reported, not only the first. An unknown field close to
 * a known one comes first, with its suggestion: a typo explains the parameter_missing it causes, so the message
 * names the cause (docs/errors.md, "Messages that teach").
 *
 * @example
 * const checked = checkInput(CreateSessionBodySchema, event.body, 'body');
 * if (!checked.ok) throw invalidInput(checked.problems);
 */
export function checkInput<S extends z.ZodType>(schema: S, value: unknown, location: InputLocation): InputCheck<z.output<S>> {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return { ok: true, data: result.data };
  const problems = result.error.issues.flatMap((issue) => problemsOf(issue, location, schema));
  const suggested = (p: FieldProblem) => p.code === 'parameter_unknown' && p.message.includes('Did you mean');
  return { ok: false, problems: [...problems.filter(suggested), ...problems.filter((p) => !suggested(p))] };
}

/** The 400 of invalid input: every problem in `errors`, the first also as message, field and code (as before `errors`). */
export function invalidInput(problems: FieldProblem[]): ValidationError {
  const first = problems[0]!;
  return new ValidationError(first.message, first.param, first.code, problems);
}

/** checkInput that throws the 400. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, location: InputLocation): z.output<S> {
  const checked = checkInput(schema, value, location);
  if (!checked.ok) throw invalidInput(checked.problems);
  return checked.data;
}

/** The longest parameter name an error echoes: a name is the caller's own input (an unknown key may be 10 KB). */
export const ECHOED_NAME_MAX = 64;

/**
 * A parameter's dotted name as errors echo it, cut to ECHOED_NAME_MAX characters with a closing "…".
 *
 * @example
 * paramName(['metadata', 'x'.repeat(100)]) // 'metadata.xxxx…' (64 characters)
 */
function paramName(segments: string[]): string {
  const name = segments.join('.');
  return name.length > ECHOED_NAME_MAX ? `${name.slice(0, ECHOED_NAME_MAX - 1)}…` : name;
}

function problemsOf(issue: z.core.$ZodIssue, location: InputLocation, schema: z.ZodType): FieldProblem[] {
  const prefix = location === 'body' ? [] : [location];
  if (issue.code === 'unrecognized_keys') {
    const sent = issue.input !== null && typeof issue.input === 'object' ? Object.keys(issue.input) : [];
    const known = fieldsAt(schema, issue.path).filter((field) => !sent.includes(field));
    return issue.keys.map((key) => {
      const param = paramName([...prefix, ...issue.path.map(String), key]);
      const suggestion = closestField(key, known);
      return { param, code: 'parameter_unknown', message: `Unknown parameter: ${param}.${suggestion ? ` Did you mean ${suggestion}?` : ''}` };
    });
  }
  const param = paramName([...prefix, ...issue.path.map(String)]) || undefined;
  // A required field that is absent: a type issue, or (for enums such as currency) a value issue, on no input.
  if ((issue.code === 'invalid_type' || issue.code === 'invalid_value') && issue.input === undefined) {
    return [{ param, code: 'parameter_missing', message: `Missing required parameter: ${param}.` }];
  }
  if (location === 'body' && issue.path.length === 0) {
    return [{ code: 'parameter_invalid', message: 'The request body must be a JSON object.' }];
  }
  if (issue.code === 'invalid_value' && param) return [{ param, code: 'parameter_invalid', message: `Invalid ${param}: ${optionsHint(issue.values, issue.input)}` }];
  const hint = issue.code === 'invalid_type' && isAmountField(issue.path) ? amountHint(issue.input) : null;
  return [{ param, code: 'parameter_invalid', message: param ? `Invalid ${param}: ${hint ?? issue.message}` : issue.message }];
}

/** Money fields are named <something>Minor (amountMinor): integers in the currency's smallest unit. */
const isAmountField = (path: PropertyKey[]) => /Minor$/.test(String(path.at(-1) ?? ''));

/**
 * What to send instead of a fractional or quoted amount, as the value sent converted to minor units; null for a
 * whole number (its own rule, such as the range, says what is wrong).
 *
 * @example
 * amountHint(10.5) // 'amounts are integers in minor units (cents): 10.50 is 1050.'
 */
function amountHint(input: unknown): string | null {
  const rule = 'amounts are integers in minor units (cents)';
  const example = (major: number) => `${(Math.round(major * 100) / 100).toFixed(2)} is ${Math.round(major * 100)}`;
  if (typeof input === 'number') return Number.isInteger(input) || !Number.isFinite(input) ? null : `${rule}: ${example(input)}.`;
  const asJson = `${rule}, sent as JSON numbers`;
  if (typeof input === 'string' && /^-?\d{1,15}$/.test(input.trim())) return `${asJson}: send ${input.trim()}, not "${input}".`;
  if (typeof input === 'string' && /^-?\d{1,13}\.\d+$/.test(input.trim())) return `${asJson}: "${input}" is ${Math.round(Number(input) * 100)}.`;
  return `${asJson}: ${example(10.5)}.`;
}

/** Retired ISO 4217 codes a merchant may still send, and why each is now another (the value's own case ignored). */
const RETIRED_CODES: Record<string, { now: string; why: string }> = {
  VEF: { now: 'VES', why: 'VEF, the bolívar fuerte, became VES (bolívar soberano) in August 2018; the 2021 bolívar digital kept VES' },
  VEB: { now: 'VES', why: 'VEB, the bolívar of before 2008, is no longer in use; the bolívar is VES' },
};

/**
 * What an enum takes and, as Stripe does, what the value sent most likely meant: the same value in another case
 * ("ves"), or the code that replaced a retired one (VEF). The value itself is not echoed: whatever a client put in a
 * field stays out of answers and logs.
 *
 * @example
 * optionsHint(['VES', 'USD'], 'vef') // 'expected one of VES, USD. Did you mean VES? VEF, the bolívar fuerte, became VES ...'
 */
function optionsHint(values: readonly unknown[], input: unknown): string {
  const expected = `expected one of ${values.map(String).join(', ')}.`;
  if (typeof input !== 'string') return expected;
  const sent = input.trim().toUpperCase();
  const retired = RETIRED_CODES[sent];
  if (retired && values.includes(retired.now)) return `${expected} Did you mean ${retired.now}? ${retired.why}.`;
  const sameLetters = values.find((value) => typeof value === 'string' && value.toUpperCase() === sent);
  return sameLetters === undefined ? expected : `${expected} Did you mean ${String(sameLetters)}?`;
}

/** The field names of the object at `path` inside a schema (through optional, nullable, default and pipes); [] when not an object. */
function fieldsAt(schema: z.ZodType, issuePath: PropertyKey[]): string[] {
  const path = [...issuePath];
  let current: z.core.$ZodType | undefined = schema;
  while (current) {
    const def = current._zod.def as unknown as { type: string; innerType?: z.core.$ZodType; in?: z.core.$ZodType; shape?: Record<string, z.core.$ZodType>; element?: z.core.$ZodType };
    if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default') current = def.innerType;
    else if (def.type === 'pipe') current = def.in;
    else if (path.length === 0) return def.type === 'object' && def.shape ? Object.keys(def.shape) : [];
    else if (def.type === 'object' && def.shape) current = def.shape[String(path.shift())];
    else if (def.type === 'array' && typeof path[0] === 'number') (path.shift(), (current = def.element));
    else return [];
  }
  return [];
}

/**
 * The known field an unknown name most likely meant: the same name in another case, a name it starts (amount for
 * amountMinor) or ends, or one at most two edits away; null when none is that close.
 */
function closestField(name: string, known: string[]): string | null {
  const lower = name.toLowerCase();
  const close = known
    .map((field) => {
      const other = field.toLowerCase();
      const edits = distance(lower, other);
      const affix = lower.length >= 4 && (other.startsWith(lower) || lower.startsWith(other));
      return { field, edits, close: edits === 0 || edits <= 2 || affix };
    })
    .filter((c) => c.close)
    .sort((a, b) => a.edits - b.edits);
  return close[0]?.field ?? null;
}
