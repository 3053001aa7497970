import { describe, expect, it } from 'vitest';
import { BrandingError, LOGO_MAX_BYTES, logoContentType, logoPath, normaliseBranding, publicBusinessName } from '../../shared/domain/merchant-branding.ts';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]);
const WEBP = new Uint8Array([...new TextEncoder().encode('RIFF'), 0, 0, 0, 0, ...new TextEncoder().encode('WEBPVP8 ')]);
const SVG = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

const brandingError = (run: () => unknown): BrandingError => {
  try {
    run();
  } catch (error) {
    if (error instanceof BrandingError) return error;
    throw error;
  }
  throw new Error('expected a BrandingError');
};

describe('merchant branding', () => {
  it('tells PNG, JPEG and WebP apart by their magic bytes and refuses SVG, GIF and a RIFF that is not WebP', () => {
    expect(logoContentType(PNG)).toBe('image/png');
    expect(logoContentType(JPEG)).toBe('image/jpeg');
    expect(logoContentType(WEBP)).toBe('image/webp');
    expect(logoContentType(SVG)).toBeNull();
    expect(logoContentType(new TextEncoder().encode('GIF89a'))).toBeNull();
    expect(logoContentType(new TextEncoder().encode('RIFF\0\0\0\0WAVEfmt '))).toBeNull();
    expect(logoContentType(new Uint8Array())).toBeNull();
  });

  it('cleans the business name as prefill names are cleaned and keeps it within 1-80 characters after cleaning', () => {
    expect(normaliseBranding({ businessName: '  Café\u200b   Ávila\n ' })).toEqual({ businessName: 'Café Ávila' });
    // 80 letters with accents and a few blanks around: 80 characters after cleaning, accepted.
    expect(normaliseBranding({ businessName: ` ${'é'.repeat(80)}  ` }).businessName).toHaveLength(80);
    expect(brandingError(() => normaliseBranding({ businessName: 'x'.repeat(81) })).field).toBe('businessName');
    expect(brandingError(() => normaliseBranding({ businessName: ' \u200b\t ' })).message).toMatch(/empty/);
    expect(normaliseBranding({ businessName: null })).toEqual({ businessName: null });
  });

  it('accepts a logo by its bytes, refuses SVG, a lying content type and anything over 64 KiB', () => {
    expect(normaliseBranding({ logo: { bytes: PNG } })).toEqual({ logo: { contentType: 'image/png', bytes: PNG } });
    expect(normaliseBranding({ logo: { contentType: 'IMAGE/JPEG', bytes: JPEG } }).logo).toMatchObject({ contentType: 'image/jpeg' });
    expect(brandingError(() => normaliseBranding({ logo: { contentType: 'image/svg+xml', bytes: SVG } })).message).toMatch(/PNG, JPEG or WebP/);
    expect(brandingError(() => normaliseBranding({ logo: { contentType: 'image/png', bytes: JPEG } })).message).toMatch(/declared image\/png/);
    const large = new Uint8Array(LOGO_MAX_BYTES + 1);
    large.set(PNG);
    expect(brandingError(() => normaliseBranding({ logo: { bytes: large } })).field).toBe('logo');
    const limit = large.subarray(0, LOGO_MAX_BYTES);
    expect(normaliseBranding({ logo: { bytes: limit } }).logo?.bytes.length).toBe(LOGO_MAX_BYTES);
  });

  it('shows the business name when set and the merchant name otherwise; the logo URL is on the checkout API path', () => {
    expect(publicBusinessName({ name: 'Inversiones Ávila C.A.', businessName: 'Café Ávila' })).toBe('Café Ávila');
    expect(publicBusinessName({ name: 'Inversiones Ávila C.A.' })).toBe('Inversiones Ávila C.A.');
    expect(logoPath('mer_abc', { hash: '0123456789abcdef0123456789abcdef' })).toBe('/v1/checkout/logos/mer_abc/0123456789abcdef0123456789abcdef');
  });
});
