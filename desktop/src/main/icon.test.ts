import { describe, expect, it } from 'vitest';
import { badgeLabel, drawBadgePng, drawIconPng } from './icon.js';
import { decodePng } from './testing/fakes.js';

const isRed = ([r, g, b, a]: number[]) => r > 200 && g < 80 && b < 80 && a === 255;
const isBrand = ([r, , b, a]: number[]) => b > 200 && r < 80 && a === 255;

describe('icon drawing', () => {
  it('labels the badge', () => {
    expect(badgeLabel(0)).toBe('');
    expect(badgeLabel(-3)).toBe('');
    expect(badgeLabel(1)).toBe('1');
    expect(badgeLabel(9)).toBe('9');
    expect(badgeLabel(10)).toBe('9+');
    expect(badgeLabel(4000)).toBe('9+');
  });

  it('encodes a valid PNG of the asked size', () => {
    const png = decodePng(drawIconPng(32));
    expect([png.width, png.height]).toEqual([32, 32]);
    expect(png.pixel(0, 0)[3]).toBe(0); // rounded corner: transparent
    expect(isBrand(png.pixel(4, 28))).toBe(true);
  });

  it('draws a red badge only when there is something unread', () => {
    expect(isRed(decodePng(drawIconPng(32, 0)).pixel(21, 2))).toBe(false);
    expect(isRed(decodePng(drawIconPng(32, 5)).pixel(21, 2))).toBe(true);
  });

  it('draws the count: different numbers give different pictures', () => {
    const three = drawIconPng(32, 3);
    expect(drawIconPng(32, 3).equals(three)).toBe(true);
    expect(drawIconPng(32, 7).equals(three)).toBe(false);
    expect(drawIconPng(32, 12).equals(drawIconPng(32, 99))).toBe(true);
  });

  it('draws a badge-only overlay', () => {
    const png = decodePng(drawBadgePng(32, 2));
    expect(isRed(png.pixel(5, 16))).toBe(true);
    expect(png.pixel(0, 0)[3]).toBe(0);
  });
});
