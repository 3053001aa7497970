import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../shared/errors.ts';
import {
  CARDHOLDER_NAME_MAX,
  DOCUMENT_ID_MAX,
  DOCUMENT_ID_MIN,
  DOCUMENT_TYPES,
  characterLength,
  cleanDocumentId,
  cleanName,
  normalisePrefill,
} from '../../shared/domain/prefill.ts';
import { CreateSessionBodySchema, PrefillInputSchema } from '../../shared/schemas/session-schemas.ts';
import { parseInput } from '../../shared/schemas/validation.ts';

// What the spec calls invisible and control characters (plus lone surrogates, which are never text).
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;
const DOCUMENT_SEPARATORS = /[\s.\-_/\\,]/u;

const ZWSP = '\u200B';
const LRM = '\u200E';
const RLM = '\u200F';
const RLO = '\u202E';
const BOM = '\uFEFF';

const parse = (input: unknown) => PrefillInputSchema.safeParse(input);
const issuePaths = (input: unknown) => {
  const result = parse(input);
  return result.success ? [] : result.error.issues.map((i) => i.path.join('.'));
};

/** A single UTF-16 unit from the surrogate range: a lone half that no valid string contains. */
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));

/**
 * Units chosen to hit the tricky cases often: separators, every kind of space and invisible mark, combining accents
 * that compose with a neighbour once an invisible character between them is gone, letters whose case or
 * compatibility mapping changes their shape, plus any code point and lone surrogates.
 */
const trickyUnit = fc.oneof(
  fc.constantFrom(' ', '  ', '\t', '\n', '\r\n', '\u00A0', '\u2003', '\u3000', '\u2028', '\u2029', ZWSP, '\u200C', '\u200D', LRM, RLM, RLO, BOM, '\u0000', '\u007F'),
  fc.constantFrom('.', '-', '_', '/', '\\', ',', '0', '1', '9', '\uFF11', 'a', 'e', 'E', 'n', 'A', 'Z', 'ß', 'ΐ', 'ǰ', 'ª', 'ﬁ', 'ŉ', 'Å', '\u0301', '\u0308', '\u0303', '\u030A'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  loneSurrogate,
);
const trickyString = fc.string({ unit: trickyUnit, maxLength: 40 });
const anyUnicodeString = fc.oneof(trickyString, fc.string({ unit: 'binary' }), fc.string({ unit: fc.oneof(fc.string({ unit: 'binary', maxLength: 1 }), loneSurrogate) }));

/** A prefill as a merchant might send it: each key optional, values mostly plausible, sometimes anything. */
const prefillInput = fc.record(
  {
    cardholderName: fc.oneof(
      { arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 90 }), weight: 2 },
      { arbitrary: anyUnicodeString, weight: 2 },
    ),
    documentType: fc.oneof(
      { arbitrary: fc.constantFrom(...DOCUMENT_TYPES, 'v', ' p ', `${ZWSP}E`), weight: 4 },
      { arbitrary: fc.constantFrom('X', '', 'VV'), weight: 1 },
      { arbitrary: anyUnicodeString, weight: 1 },
    ),
    documentId: fc.oneof(
      { arbitrary: fc.stringMatching(/^[0-9]{3,14}$/), weight: 3 },
      { arbitrary: fc.stringMatching(/^[0-9a-zA-Z][0-9a-zA-Z.\- ]{2,15}$/), weight: 2 },
      { arbitrary: anyUnicodeString, weight: 1 },
    ),
  },
  { requiredKeys: [] },
);

describe('cleanDocumentId', () => {
  it.each([
    ['12.345.678', '12345678'],
    ['12-345-678', '12345678'],
    ['12 345 678', '12345678'],
    ['12_345/678\\9,0', '1234567890'],
    ['  V-12.345.678  ', 'V12345678'],
    ['ab1234567', 'AB1234567'],
    ['ab-12.34 56', 'AB123456'],
    [`${ZWSP}12${LRM}345${BOM}678\n`, '12345678'],
    // Full-width digits, as some phone keyboards send them.
    ['\uFF11\uFF12\uFF13\uFF14\uFF15', '12345'],
    // Upper-casing ΐ yields a decomposed sequence; the stored form must be the composed one, as on a second pass.
    ['ab\u0390', 'AB\u03AA\u0301'],
  ])('cleans %j to %j', (raw, cleaned) => {
    // act / assess
    expect(cleanDocumentId(raw)).toBe(cleaned);
  });
});

describe('cleanName', () => {
  it.each([
    ['  Ana   María  ', 'Ana María'],
    ['Ana \n María', 'Ana María'],
    ['Ana María\r\n', 'Ana María'],
    ['Ana\u00A0\u00A0María', 'Ana María'],
    [`Ana${ZWSP}María`, 'AnaMaría'],
    [`${RLO}Ana${RLM} ${LRM}María${BOM}`, 'Ana María'],
    [`${BOM}José Pérez`, 'José Pérez'],
    ['Ana\u2028María', 'AnaMaría'],
    // One visible letter is one character, however it was typed.
    ['Jose\u0301', 'José'],
    // The accent composes with its letter once the invisible character between them is gone.
    [`Jose${ZWSP}\u0301`, 'José'],
  ])('cleans %j to %j', (raw, cleaned) => {
    // act / assess
    expect(cleanName(raw)).toBe(cleaned);
  });
});

describe('PrefillInputSchema', () => {
  it('accepts a name of 80 letters padded with zero-width characters, because the limit applies after cleaning', () => {
    // prepare
    const letters = 'a'.repeat(CARDHOLDER_NAME_MAX);
    const padded = [...letters].join(ZWSP) + RLM + BOM;
    // act
    const result = parse({ cardholderName: ` ${padded} ` });
    // assess
    expect(result.success).toBe(true);
    expect(result.data).toEqual({ cardholderName: letters });
  });

  it('rejects a name of 81 letters', () => {
    expect(issuePaths({ cardholderName: 'a'.repeat(CARDHOLDER_NAME_MAX + 1) })).toEqual(['cardholderName']);
  });

  it.each([
    ['letter + accent', 'e\u0301'],
    ['letter + zero-width space + accent', `e${ZWSP}\u0301`],
  ])('counts a letter typed as %s as one character', (_, letter) => {
    // prepare: 80 visible letters, 160 code points or more as sent
    const name = letter.repeat(CARDHOLDER_NAME_MAX);
    // act
    const result = parse({ cardholderName: name });
    // assess
    expect(result.success).toBe(true);
    expect(result.data!.cardholderName).toBe('\u00E9'.repeat(CARDHOLDER_NAME_MAX));
  });

  it.each([[''], ['   '], [`${ZWSP}${LRM}${RLM}${RLO}${BOM}`], ['\n\r\t'], [` ${ZWSP} \u00A0 `]])(
    'rejects the name %j because it is empty after cleaning',
    (name) => {
      expect(issuePaths({ cardholderName: name })).toEqual(['cardholderName']);
    },
  );

  it('rejects documentId without documentType', () => {
    expect(issuePaths({ documentId: '12345678' })).toEqual(['documentId']);
  });

  it('accepts documentType alone, so the checkout preselects it', () => {
    expect(parse({ documentType: 'P' })).toMatchObject({ success: true, data: { documentType: 'P' } });
  });

  it('accepts an empty prefill as no prefill: null', () => {
    expect(parse({})).toEqual({ success: true, data: null });
  });

  it.each([
    ['V', '12345', '12345'],
    ['E', '123456789012', '123456789012'],
    ['J', '12.345.678-9', '123456789'],
    ['G', '20 000 000', '20000000'],
    ['P', 'ab123456', 'AB123456'],
    ['P', 'x-98.76 5', 'X98765'],
    ['v', '12345678', '12345678'],
  ])('accepts type %j with document %j, stored as %j', (documentType, documentId, stored) => {
    // act
    const result = parse({ documentType, documentId });
    // assess
    expect(result.success).toBe(true);
    expect(result.data).toEqual({ documentType: documentType.toUpperCase(), documentId: stored });
  });

  it.each([
    ['V', '1234', 'too short'],
    ['V', '1234567890123', 'too long'],
    ['V', '12.34', 'too short once separators are removed'],
    ['E', 'A1234567', 'a letter in a digits-only type'],
    ['J', '1234567O', 'the letter O in a digits-only type'],
    ['G', '12345١', 'an Arabic-Indic digit'],
    ['P', 'AB12', 'too short'],
    ['P', 'AB 12345678901', 'too long once separators are removed'],
    ['P', 'AB12345Ñ', 'a letter outside A-Z'],
  ])('rejects type %j with document %j (%s)', (documentType, documentId) => {
    expect(issuePaths({ documentType, documentId })).toEqual(['documentId']);
  });

  it.each([['X'], [''], ['VE'], ['passport']])('rejects the unknown document type %j', (documentType) => {
    expect(issuePaths({ documentType })).toEqual(['documentType']);
  });

  it('rejects an unknown key inside prefill', () => {
    // act
    const result = parse({ cardholderName: 'Ana', email: 'ana@example.com' });
    // assess
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['email'] });
  });

  it.each([
    [{ documentId: '12345678' }, 'prefill.documentId', 'parameter_invalid'],
    [{ cardholderName: ZWSP }, 'prefill.cardholderName', 'parameter_invalid'],
    [{ cardholderName: 'Ana', email: 'x' }, 'prefill.email', 'parameter_unknown'],
  ])('names the field of a bad prefill %j in the 400 of POST /v1/sessions', (prefill, field, code) => {
    // act
    const attempt = () => parseInput(CreateSessionBodySchema, { amountMinor: 100, currency: 'VES', prefill }, 'body');
    // assess
    expect(attempt).toThrow(ValidationError);
    expect(attempt).toThrow(expect.objectContaining({ code, options: expect.objectContaining({ field }) }));
  });

  it('stores the cleaned prefill of POST /v1/sessions, not what was sent', () => {
    const body = parseInput(
      CreateSessionBodySchema,
      { amountMinor: 100, currency: 'VES', prefill: { cardholderName: ' Ana  María ', documentType: 'V', documentId: '12.345.678' } },
      'body',
    );
    expect(body.prefill).toEqual({ cardholderName: 'Ana María', documentType: 'V', documentId: '12345678' });
  });
});

describe('prefill normalisation properties', () => {
  it('is idempotent: cleaning a cleaned name or document id changes nothing', () => {
    fc.assert(
      fc.property(anyUnicodeString, (raw) => {
        const name = cleanName(raw);
        const id = cleanDocumentId(raw);
        expect(cleanName(name)).toBe(name);
        expect(cleanDocumentId(id)).toBe(id);
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves no control or format character, no double space and no outer space in a cleaned name', () => {
    fc.assert(
      fc.property(anyUnicodeString, (raw) => {
        const name = cleanName(raw);
        expect(name).not.toMatch(INVISIBLE);
        expect(name).not.toMatch(/\s\s/u);
        expect(name).toBe(name.trim());
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves no separator and no invisible character in a cleaned document id', () => {
    fc.assert(
      fc.property(anyUnicodeString, (raw) => {
        const id = cleanDocumentId(raw);
        expect(id).not.toMatch(DOCUMENT_SEPARATORS);
        expect(id).not.toMatch(INVISIBLE);
      }),
      { numRuns: 2000 },
    );
  });

  it('accepts only prefills that satisfy the documented rules, already in their stored form', () => {
    fc.assert(
      fc.property(prefillInput, (input) => {
        const result = parse(input);
        if (!result.success) return;
        // Only an empty prefill becomes null (no prefill).
        if (result.data === null) {
          expect(input).toEqual({});
          return;
        }
        const { cardholderName, documentType, documentId } = result.data;
        if (cardholderName !== undefined) {
          expect(characterLength(cardholderName)).toBeGreaterThan(0);
          expect(characterLength(cardholderName)).toBeLessThanOrEqual(CARDHOLDER_NAME_MAX);
          expect(cardholderName).not.toMatch(INVISIBLE);
        }
        if (documentType !== undefined) expect(DOCUMENT_TYPES).toContain(documentType);
        if (documentId !== undefined) {
          expect(documentType).toBeDefined();
          expect(documentId.length).toBeGreaterThanOrEqual(DOCUMENT_ID_MIN);
          expect(documentId.length).toBeLessThanOrEqual(DOCUMENT_ID_MAX);
          expect(documentId).toMatch(documentType === 'P' ? /^[A-Z0-9]+$/ : /^[0-9]+$/);
        }
        // What is stored would be accepted again unchanged.
        expect(normalisePrefill(result.data)).toEqual(result.data);
        expect(parse(result.data)).toMatchObject({ success: true, data: result.data });
      }),
      { numRuns: 3000 },
    );
  });

  it('never throws on arbitrary input, lone surrogates included: it returns issues instead', () => {
    fc.assert(
      fc.property(fc.oneof(prefillInput, fc.anything(), fc.dictionary(anyUnicodeString, anyUnicodeString)), (input) => {
        const result = parse(input);
        if (!result.success) expect(result.error.issues.length).toBeGreaterThan(0);
      }),
      { numRuns: 2000 },
    );
  });
});
