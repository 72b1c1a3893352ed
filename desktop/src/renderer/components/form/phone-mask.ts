/** Brazilian phone mask of the signup form: (99) 99999-9999, at most 11 digits (spec 01 section 5). */
export const PHONE_MAX_DIGITS = 11;

export const phoneDigits = (value: string): string => value.replace(/\D/g, '').slice(0, PHONE_MAX_DIGITS);

/** Formats what has been typed so far: '119' → '(11) 9', '11987654321' → '(11) 98765-4321'. */
export const maskPhone = (value: string): string => {
  const d = phoneDigits(value);
  if (d.length === 0) return '';
  if (d.length <= 2) return `(${d}`;
  if (d.length <= 7) return `(${d.slice(0, 2)}) ${d.slice(2)}`;
  return `(${d.slice(0, 2)}) ${d.slice(2, 7)}-${d.slice(7)}`;
};
