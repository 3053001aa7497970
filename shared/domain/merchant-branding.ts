/**
 * What buyers see of a merchant on the checkout page: its public business name and an optional logo. Pure: no I/O,
 * no AWS, no node:crypto (the checkout page's bundle may import it).
 *
 * The logo is an image the page shows with <img>, served by the API on the checkout's own origin
 * (GET /v1/checkout/logos/{merchantId}/{hash}, cacheable for a year: a new logo is a new hash, so a new URL). Only
 * raster formats told apart by their first bytes are accepted: never SVG, which can carry scripts, and never what a
 * declared content type merely claims.
 */
import { characterLength, cleanName } from './prefill.ts';

export const BUSINESS_NAME_MAX = 80;
/** 64 KiB: a logo is shown about 48 px high; a larger file only slows the first paint on a phone. */
export const LOGO_MAX_BYTES = 64 * 1024;
export const LOGO_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type LogoContentType = (typeof LOGO_CONTENT_TYPES)[number];

/** What the merchant item keeps of its logo; the bytes live in their own item (docs/data-model.md). */
export interface MerchantLogo {
  /** First 32 hex characters of the SHA-256 of the bytes: the URL changes exactly when the image does. */
  hash: string;
  contentType: LogoContentType;
  sizeBytes: number;
}

/** A branding change as a caller asks for it: absent fields are left as they are; null removes. */
export interface BrandingInput {
  /** null (or empty after cleaning is refused): the checkout shows the merchant's `name` again. */
  businessName?: string | null;
  /** null removes the logo. `contentType`, when given, must match what the bytes are. */
  logo?: { contentType?: string; bytes: Uint8Array } | null;
}

/** The same change, checked and cleaned: what MerchantStore.updateBranding writes. */
export interface BrandingChange {
  businessName?: string | null;
  logo?: { contentType: LogoContentType; bytes: Uint8Array } | null;
}

/** A branding value that cannot be used; `field` names it (businessName, logo) for a 400 parameter_invalid. */
export class BrandingError extends Error {
  constructor(readonly field: 'businessName' | 'logo', message: string) {
    super(message);
    this.name = 'BrandingError';
  }
}

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0): boolean =>
  bytes.length >= offset + signature.length && signature.every((byte, i) => bytes[offset + i] === byte);
const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

/**
 * The image format by its magic bytes, or null when it is none of the accepted ones.
 *
 * @example
 * logoContentType(readFileSync('logo.png')) // 'image/png'
 * logoContentType(new TextEncoder().encode('<svg ...>')) // null
 */
export function logoContentType(bytes: Uint8Array): LogoContentType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  return null;
}

/** The name cleaned as prefill names are (invisible characters out, whitespace collapsed); 1-80 characters after. */
export function cleanBusinessName(raw: string): string {
  const name = cleanName(raw);
  if (name.length === 0) throw new BrandingError('businessName', 'businessName is empty after removing blanks and invisible characters.');
  if (characterLength(name) > BUSINESS_NAME_MAX) {
    throw new BrandingError('businessName', `businessName has ${characterLength(name)} characters after cleaning; at most ${BUSINESS_NAME_MAX}.`);
  }
  return name;
}

/** Checks a logo's bytes; the declared content type, if any, must be what the bytes are. */
export function checkLogo(logo: { contentType?: string; bytes: Uint8Array }): { contentType: LogoContentType; bytes: Uint8Array } {
  if (logo.bytes.length > LOGO_MAX_BYTES) {
    throw new BrandingError('logo', `The logo is ${logo.bytes.length} bytes; at most ${LOGO_MAX_BYTES} (64 KiB).`);
  }
  const contentType = logoContentType(logo.bytes);
  if (!contentType) throw new BrandingError('logo', 'The logo must be a PNG, JPEG or WebP image (SVG is not accepted).');
  if (logo.contentType !== undefined && logo.contentType.toLowerCase() !== contentType) {
    throw new BrandingError('logo', `The logo is declared ${logo.contentType} but its bytes are ${contentType}.`);
  }
  return { contentType, bytes: logo.bytes };
}

/**
 * Checks and cleans a branding change; throws BrandingError for the first unusable field.
 *
 * @example
 * normaliseBranding({ businessName: '  Café  Ávila ', logo: null }) // { businessName: 'Café Ávila', logo: null }
 */
export function normaliseBranding(input: BrandingInput): BrandingChange {
  const change: BrandingChange = {};
  if (input.businessName !== undefined) change.businessName = input.businessName === null ? null : cleanBusinessName(input.businessName);
  if (input.logo !== undefined) change.logo = input.logo === null ? null : checkLogo(input.logo);
  return change;
}

/** The name buyers see: the business name when set, else the merchant's own name. */
export const publicBusinessName = (merchant: { name: string; businessName?: string }): string => merchant.businessName ?? merchant.name;

/** Where the checkout page loads a logo from (same origin as the page; CloudFront routes /v1/checkout/* to the API). */
export const logoPath = (merchantId: string, logo: Pick<MerchantLogo, 'hash'>): string =>
  `/v1/checkout/logos/${encodeURIComponent(merchantId)}/${logo.hash}`;
