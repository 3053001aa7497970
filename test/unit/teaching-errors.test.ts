import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CreateChargeBodySchema } from '../../shared/schemas/card-schemas.ts';
import { ErrorSchema } from '../../shared/schemas/common-responses.ts';
import { CreateRefundBodySchema } from '../../shared/schemas/refund-schemas.ts';
import { CreateSessionBodySchema } from '../../shared/schemas/session-schemas.ts';
import { checkInput, ECHOED_NAME_MAX } from '../../shared/schemas/validation.ts';
import { DEFAULT_DOCS_BASE_URL, docUrlFor } from '../../shared/http/request-id.ts';

const problemsOf = (schema: Parameters<typeof checkInput>[0], body: unknown) => {
  const checked = checkInput(schema, body, 'body');
  if (checked.ok) throw new Error('expected the input to be refused');
  return checked.problems;
};

/** docs/errors.md, "Messages that teach": the common mistakes answer with their fix. */
describe('errors that teach', () => {
  it.each([
    [10.5, 'Invalid amountMinor: amounts are integers in minor units (cents): 10.50 is 1050.'],
    [2.5, 'Invalid amountMinor: amounts are integers in minor units (cents): 2.50 is 250.'],
    ['10.50', 'Invalid amountMinor: amounts are integers in minor units (cents), sent as JSON numbers: "10.50" is 1050.'],
    ['1050', 'Invalid amountMinor: amounts are integers in minor units (cents), sent as JSON numbers: send 1050, not "1050".'],
    ['ten', 'Invalid amountMinor: amounts are integers in minor units (cents), sent as JSON numbers: 10.50 is 1050.'],
  ])('a session amount of %j says amounts are integers in minor units, with the converted example', (amountMinor, message) => {
    expect(problemsOf(CreateSessionBodySchema, { amountMinor, currency: 'VES' })).toEqual([{ param: 'amountMinor', code: 'parameter_invalid', message }]);
  });

  it('teaches the same on every amount the merchant sends: charges and refunds', () => {
    expect(problemsOf(CreateChargeBodySchema, { svcToken: 'tok_svc_abc', amountMinor: 25.5, currency: 'VES' })[0]).toMatchObject({ param: 'amountMinor', message: expect.stringContaining('25.50 is 2550') });
    expect(problemsOf(CreateRefundBodySchema, { amountMinor: '5.00' })[0]).toMatchObject({ param: 'amountMinor', message: expect.stringContaining('"5.00" is 500') });
  });

  it('keeps the range rule as it was for a whole amount below 1', () => {
    expect(problemsOf(CreateSessionBodySchema, { amountMinor: 0, currency: 'VES' })[0]!.message).toBe('Invalid amountMinor: Too small: expected number to be >=1');
  });

  it(`cuts an echoed parameter name to ${ECHOED_NAME_MAX} characters, at any depth`, () => {
    const long = 'x'.repeat(10 * 1024);
    const [unknown] = problemsOf(CreateSessionBodySchema, { amountMinor: 1050, currency: 'VES', [long]: 1 });
    expect(unknown).toEqual({ param: `${'x'.repeat(ECHOED_NAME_MAX - 1)}…`, code: 'parameter_unknown', message: `Unknown parameter: ${'x'.repeat(ECHOED_NAME_MAX - 1)}….` });
    const nested = problemsOf(CreateSessionBodySchema, { amountMinor: 1050, currency: 'VES', metadata: { [long]: { nested: true } } });
    for (const problem of nested) {
      expect(problem.param!.length).toBeLessThanOrEqual(ECHOED_NAME_MAX);
      expect(problem.message).not.toContain('x'.repeat(ECHOED_NAME_MAX));
    }
    expect(problemsOf(CreateSessionBodySchema, { amountMinor: 1050, currency: 'VES', amuont: 1 })[0]!.param).toBe('amuont');
  });

  it('suggests the known field an unknown one is close to, and lists it first', () => {
    expect(problemsOf(CreateSessionBodySchema, { amount: 1050, currency: 'VES' })).toEqual([
      { param: 'amount', code: 'parameter_unknown', message: 'Unknown parameter: amount. Did you mean amountMinor?' },
      { param: 'amountMinor', code: 'parameter_missing', message: 'Missing required parameter: amountMinor.' },
    ]);
    expect(problemsOf(CreateSessionBodySchema, { amountMinor: 1050, currency: 'VES', custmerRef: 'cus_1' })[0]).toEqual({ param: 'custmerRef', code: 'parameter_unknown', message: 'Unknown parameter: custmerRef. Did you mean customerRef?' });
    expect(problemsOf(CreateSessionBodySchema, { amountMinor: 1050, currency: 'VES', ExpiresInMinutes: 10 })[0]!.message).toBe('Unknown parameter: ExpiresInMinutes. Did you mean expiresInMinutes?');
  });

  it('names the currencies taken, once, and the one a retired or lower-case code meant', () => {
    const currency = (value: unknown) => problemsOf(CreateSessionBodySchema, { amountMinor: 1050, currency: value });
    expect(currency('VEF')).toEqual([
      {
        param: 'currency',
        code: 'parameter_invalid',
        message: 'Invalid currency: expected one of VES, USD. Did you mean VES? VEF, the bolívar fuerte, became VES (bolívar soberano) in August 2018; the 2021 bolívar digital kept VES.',
      },
    ]);
    expect(currency('usd')[0]!.message).toBe('Invalid currency: expected one of VES, USD. Did you mean USD?');
    expect(currency('EUR')[0]!.message).toBe('Invalid currency: expected one of VES, USD.');
    expect(currency(7)[0]!.message).toBe('Invalid currency: expected one of VES, USD.');
  });

  it('suggests inside nested objects, by their own fields', () => {
    expect(problemsOf(CreateSessionBodySchema, { amountMinor: 1050, currency: 'VES', prefill: { cardHolderName: 'Ana' } })[0]).toEqual({
      param: 'prefill.cardHolderName',
      code: 'parameter_unknown',
      message: 'Unknown parameter: prefill.cardHolderName. Did you mean cardholderName?',
    });
  });

  it('suggests nothing for a name close to no field, nor a field the body already has', () => {
    expect(problemsOf(CreateSessionBodySchema, { amountMinor: 1050, currency: 'VES', colour: 'red' })).toEqual([{ param: 'colour', code: 'parameter_unknown', message: 'Unknown parameter: colour.' }]);
    expect(problemsOf(CreateSessionBodySchema, { amountMinor: 1050, amount: 1050, currency: 'VES' })).toEqual([{ param: 'amount', code: 'parameter_unknown', message: 'Unknown parameter: amount.' }]);
  });

  it("keeps the OpenAPI document's Error example what the API answers to that body", () => {
    const example = ErrorSchema.meta()!.example as { message: string; field: string; code: string; errors: unknown[]; docUrl: string };
    const problems = problemsOf(CreateSessionBodySchema, { amountMinor: 10.5 });
    expect(example.errors).toEqual(problems);
    expect(example).toMatchObject({ message: problems[0]!.message, field: problems[0]!.param, code: problems[0]!.code, docUrl: docUrlFor(DEFAULT_DOCS_BASE_URL, problems[0]!.code) });
  });

  it('says in docs/errors.md exactly what it answers', () => {
    const page = readFileSync('docs/errors.md', 'utf8');
    for (const amountMinor of [10.5, '10.50', '1050']) expect(page).toContain(problemsOf(CreateSessionBodySchema, { amountMinor, currency: 'VES' })[0]!.message);
    expect(page).toContain(problemsOf(CreateSessionBodySchema, { amount: 1050, currency: 'VES' })[0]!.message.replace('Unknown parameter: amount. ', 'amount. '));
  });
});
