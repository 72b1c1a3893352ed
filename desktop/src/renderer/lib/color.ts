/**
 * Text on a user-chosen colour (tags, queues): black or white, whichever contrasts more with the background
 * (WCAG 2 relative luminance). Pure black and white are what make every background pass AA (4.5:1): the
 * worst case, a background where both tie, still gives 4.58:1; an off-black would drop some mid greys below.
 */
export const TEXT_ON_LIGHT = '#000000';
export const TEXT_ON_DARK = '#ffffff';

type Rgb = [number, number, number];

const fromHex = (value: string): Rgb | null => {
  const hex = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(value)?.[1];
  if (!hex) return null;
  // #rgb(a) → #rrggbb(aa); the alpha is left out: a chip's colour is drawn as chosen, over the chip's own box.
  const full = hex.length <= 4 ? [...hex].map((c) => c + c).join('') : hex;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as Rgb;
};

const fromRgbFunction = (value: string): Rgb | null => {
  const parts = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)/i.exec(value);
  return parts ? ([1, 2, 3].map((i) => Math.min(255, Number(parts[i]))) as Rgb) : null;
};

const resolved = new Map<string, Rgb | null>();

/** Any CSS colour (hex, rgb(), a name like "navy") as 0-255 channels; null when it is not a colour. */
export const parseColor = (value: string): Rgb | null => {
  const color = value.trim();
  const direct = fromHex(color) ?? fromRgbFunction(color);
  if (direct) return direct;
  if (resolved.has(color)) return resolved.get(color)!;
  // Names and other notations: the browser's canvas normalises any colour it knows to #rrggbb or rgba().
  let rgb: Rgb | null = null;
  const context = typeof document === 'undefined' ? null : document.createElement('canvas').getContext?.('2d');
  if (context) {
    context.fillStyle = '#010203';
    context.fillStyle = color;
    const normalised = String(context.fillStyle);
    rgb = normalised === '#010203' && color.toLowerCase() !== '#010203' ? null : (fromHex(normalised) ?? fromRgbFunction(normalised));
  }
  resolved.set(color, rgb);
  return rgb;
};

/** WCAG 2 relative luminance of 0-255 channels. */
export const luminance = ([r, g, b]: Rgb): number => {
  const [lr, lg, lb] = [r, g, b].map((c) => c / 255).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * lr + 0.7152 * lg + 0.0722 * lb;
};

/** WCAG 2 contrast ratio of two luminances (1 to 21). */
export const contrastRatio = (a: number, b: number): number => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

/** The text colour for a background the user chose: black on light colours, white on dark ones. */
export const textOn = (background: string | null | undefined): string => {
  const rgb = background ? parseColor(background) : null;
  // Not a colour: filledWith draws the fallback grey instead, which takes white.
  if (!rgb) return TEXT_ON_DARK;
  const l = luminance(rgb);
  return contrastRatio(l, 1) >= contrastRatio(l, 0) ? TEXT_ON_DARK : TEXT_ON_LIGHT;
};

/** A mid grey that white text reads on (6.2:1), drawn when the stored colour is not one. */
const FALLBACK_BACKGROUND = '#616161';

/** Inline style of a filled chip/badge in a user-chosen colour, with readable text. */
export const filledWith = (background: string | null | undefined) => {
  const color = background && parseColor(background) ? background : FALLBACK_BACKGROUND;
  return { backgroundColor: color, color: textOn(color) };
};
