import type * as z from 'zod';
import { ValidationError, type FieldProblem } from '../errors.ts';

/** Where an input came from, for the field name in errors: body fields bare, others prefixed. */
export type InputLocation = 'body' | 'query' | 'path' | 'header';

export type InputCheck<T> = { ok: true; data: T } | { ok: false; problems: FieldProblem[] };

/**
 * Validates one part of a request. Each problem gets a machine code (parameter_missing, parameter_unknown or
 * parameter_invalid) and names its parameter; they are all reported, not only the first.
 *
 * @example
 * const checked = checkInput(CreateSessionBodySchema, event.body, 'body');
 * if (!checked.ok) throw invalidInput(checked.problems);
 */
export function checkInput<S extends z.ZodType>(schema: S, value: unknown, location: InputLocation): InputCheck<z.output<S>> {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, problems: result.error.issues.flatMap((issue) => problemsOf(issue, location)) };
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

function problemsOf(issue: z.core.$ZodIssue, location: InputLocation): FieldProblem[] {
  const prefix = location === 'body' ? [] : [location];
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => {
      const param = [...prefix, ...issue.path.map(String), key].join('.');
      return { param, code: 'parameter_unknown', message: `Unknown parameter: ${param}.` };
    });
  }
  const param = [...prefix, ...issue.path.map(String)].join('.') || undefined;
  // A required field that is absent: a type issue, or (for enums such as currency) a value issue, on no input.
  if ((issue.code === 'invalid_type' || issue.code === 'invalid_value') && issue.input === undefined) {
    return [{ param, code: 'parameter_missing', message: `Missing required parameter: ${param}.` }];
  }
  if (location === 'body' && issue.path.length === 0) {
    return [{ code: 'parameter_invalid', message: 'The request body must be a JSON object.' }];
  }
  return [{ param, code: 'parameter_invalid', message: param ? `Invalid ${param}: ${issue.message}` : issue.message }];
}
