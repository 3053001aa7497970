import { describe, expect, it } from 'vitest';
import { encryptField } from '../../shared/connectors/mercantil/field-cipher.ts';
import { factorOf } from '../../shared/connectors/mercantil/outcomes.ts';
import { otpWording } from '../../checkout/src/messages.ts';

const SECRET = 'merchant-secret';
const enc = (text: string) => encryptField(text, SECRET);

describe("Mercantil's getauth factor, and what the code step says of it", () => {
  it('reads the clave telefónica: its label, length and numeric field, decrypted with the merchant secret', () => {
    const factor = factorOf({ twofactor_type: enc('clavetelefonica'), twofactor_label: enc('Clave telefónica'), twofactor_field_type: enc('numeric'), twofactor_lenght: enc('8') }, SECRET);
    expect(factor).toEqual({ kind: 'phone_key', bankName: 'Mercantil', label: 'Clave telefónica', length: 8, inputType: 'numeric' });
    expect(otpWording(factor)).toMatchObject({
      intro: 'Escribe tu clave telefónica de Mercantil para confirmar el pago. No llega por mensaje: es una clave que ya tienes.',
      help: 'Es la clave de 8 dígitos que usas para confirmar operaciones por teléfono con Mercantil.',
    });
  });

  it('names a type without a known meaning by its label alone, and leaves what does not decrypt or reads oddly unknown', () => {
    const factor = factorOf({ twofactor_type: enc('claveinternet'), twofactor_label: enc('Clave de internet'), twofactor_field_type: enc('alphanumeric'), twofactor_lenght: 'not base64 of ours' }, SECRET);
    expect(factor).toEqual({ kind: 'other', bankName: 'Mercantil', label: 'Clave de internet', length: null, inputType: 'text' });
    expect(otpWording(factor)).toEqual({
      intro: 'Mercantil pide un dato más para confirmar el pago: clave de internet.',
      label: 'Clave de internet',
      help: null,
      missing: 'Escribe: clave de internet.',
      noun: 'el dato',
    });
    expect(factorOf({ twofactor_lenght: enc('99') }, SECRET)).toMatchObject({ kind: 'other', label: null, length: null });
  });

  it('keeps the sent-code wording where the bank names no factor', () => {
    expect(otpWording(null).intro).toBe('Tu banco te envió un código de verificación. Escríbelo para confirmar el pago.');
  });
});
