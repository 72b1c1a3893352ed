import { describe, expect, it } from 'vitest';
import { contrastRatio, filledWith, luminance, parseColor, textOn } from './color';

const ratio = (background: string) => contrastRatio(luminance(parseColor(background)!), luminance(parseColor(textOn(background))!));

describe('text on a user-chosen colour', () => {
  it('is black on light colours and white on dark ones', () => {
    expect(textOn('#A4CCCC')).toBe('#000000'); // the default tag colour
    expect(textOn('#ffeb3b')).toBe('#000000');
    expect(textOn('#fff')).toBe('#000000');
    expect(textOn('#c62828')).toBe('#ffffff');
    expect(textOn('#6a1b9a')).toBe('#ffffff');
    expect(textOn('#2e7d32')).toBe('#ffffff');
  });

  it('reads mid-tones that white text failed on (a fixed luminance threshold of 0.4 gave white)', () => {
    // Material green 500 and orange 600: white on them is about 2.8:1 and 2.5:1.
    for (const color of ['#4caf50', '#fb8c00', '#03a9f4', '#ff5722']) {
      expect(textOn(color)).toBe('#000000');
      expect(ratio(color)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('passes WCAG AA (4.5:1) on every colour of a 16-step RGB cube and every grey', () => {
    const steps = Array.from({ length: 16 }, (_, i) => i * 17);
    const hex = (n: number) => n.toString(16).padStart(2, '0');
    const colours = [
      ...steps.flatMap((r) => steps.flatMap((g) => steps.map((b) => `#${hex(r)}${hex(g)}${hex(b)}`))),
      ...Array.from({ length: 256 }, (_, v) => `#${hex(v)}${hex(v)}${hex(v)}`),
    ];
    const failing = colours.filter((c) => ratio(c) < 4.5);
    expect(failing).toEqual([]);
  });

  it('reads short, alpha and rgb() notations', () => {
    expect(parseColor('#abc')).toEqual([0xaa, 0xbb, 0xcc]);
    expect(parseColor('#abcd')).toEqual([0xaa, 0xbb, 0xcc]);
    expect(parseColor('#11223344')).toEqual([0x11, 0x22, 0x33]);
    expect(parseColor('rgb(255, 235, 59)')).toEqual([255, 235, 59]);
    expect(textOn('rgb(255, 235, 59)')).toBe('#000000');
  });

  it('draws a readable grey when the stored value is not a colour', () => {
    expect(filledWith('not-a-colour')).toEqual({ backgroundColor: '#616161', color: '#ffffff' });
    expect(filledWith(null)).toEqual({ backgroundColor: '#616161', color: '#ffffff' });
    expect(filledWith('#ffeb3b')).toEqual({ backgroundColor: '#ffeb3b', color: '#000000' });
  });
});
