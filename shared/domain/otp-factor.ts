export const OTP_FACTOR_KINDS = ['phone_key', 'other'] as const;
export const OTP_INPUT_TYPES = ['numeric', 'text'] as const;

/**
 * The second factor a bank asks for at the code step, as the bank's own answer describes it (Mercantil's getauth).
 * Null where the network only says that it sent the buyer a code (the page then says so).
 */
export interface OtpFactor {
  /** phone_key: a clave telefónica the buyer already has, nothing is sent; other: a factor known only by its label. */
  kind: (typeof OTP_FACTOR_KINDS)[number];
  /** The bank as buyers know it, for the page's sentence (Mercantil). */
  bankName: string;
  /** The bank's own name for the factor, in Spanish; null when its answer had none that could be read. */
  label: string | null;
  /** How many characters the bank expects, where it says. */
  length: number | null;
  inputType: (typeof OTP_INPUT_TYPES)[number];
}
