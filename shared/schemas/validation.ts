import type * as z from 'zod';
import { ValidationError } from '../errors.ts';

/** Where an input came from, for the field name in errors: body fields bare, others prefixed. */
export type InputLocation = 'body' | 'query' | 'path' | 'header';

/**
 * Validates one part of a request; the first problem becomes a 400 naming the field, with a machine code:
 * parameter_missing, parameter_unknown or parameter_invalid.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, location: InputLocation): z.output<S> {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const prefix = location === 'body' ? [] : [location];
  if (issue.code === 'unrecognized_keys') {
    const field = [...prefix, ...issue.path.map(String), issue.keys[0]!].join('.');
    return fail(`Unknown parameter: ${field}.`, field, 'parameter_unknown');
  }
  const field = [...prefix, ...issue.path.map(String)].join('.') || undefined;
  // A required field that is absent: a type issue, or (for enums such as currency) a value issue, on no input.
  if ((issue.code === 'invalid_type' || issue.code === 'invalid_value') && issue.input === undefined) {
    return fail(`Missing required parameter: ${field}.`, field, 'parameter_missing');
  }
  if (location === 'body' && issue.path.length === 0) {
    return fail('The request body must be a JSON object.', undefined, 'parameter_invalid');
  }
  return fail(field ? `Invalid ${field}: ${issue.message}` : issue.message, field, 'parameter_invalid');
}

function fail(message: string, field: string | undefined, code: string): never {
  throw new ValidationError(message, field, code);
}
