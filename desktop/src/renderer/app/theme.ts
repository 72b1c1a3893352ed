import { useEffect, useState } from 'react';
import { createDarkTheme, createLightTheme, type BrandVariants, type Theme } from '@fluentui/react-components';
import { usePreferences } from '../stores/preferences-store';
import type { ThemeMode } from '../platform';

/** The product's purple. */
export const BRAND_PURPLE = '#6a2fd4';

const toRgb = (hex: string): [number, number, number] => {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
};
const toHex = (rgb: number[]): string =>
  `#${rgb.map((c) => Math.round(Math.min(255, Math.max(0, c))).toString(16).padStart(2, '0')).join('')}`;
const mix = (from: string, to: string, amount: number): string => {
  const a = toRgb(from);
  const b = toRgb(to);
  return toHex(a.map((c, i) => c + (b[i] - c) * amount));
};

/** Fluent's 16-step brand ramp around one colour: 80 is the colour itself, darker below, lighter above. */
export const brandRamp = (base: string): BrandVariants => {
  const ramp: Record<number, string> = {};
  for (let step = 10; step <= 160; step += 10) {
    ramp[step] =
      step < 80 ? mix('#000000', base, 0.18 + ((step - 10) / 70) * 0.82) : mix(base, '#ffffff', ((step - 80) / 80) * 0.92);
  }
  return ramp as unknown as BrandVariants;
};

const brand = brandRamp(BRAND_PURPLE);

export const lightTheme: Theme = createLightTheme(brand);

/** Dark mode: the primary colour is white (spec 01 section 1), so text on it turns dark. */
export const darkTheme: Theme = {
  ...createDarkTheme(brand),
  colorBrandBackground: '#ffffff',
  colorBrandBackgroundHover: '#ebe7f3',
  colorBrandBackgroundPressed: '#d6d0e2',
  colorBrandBackgroundSelected: '#e2ddec',
  colorBrandBackgroundStatic: '#ffffff',
  colorNeutralForegroundOnBrand: '#1d1a22',
  colorBrandForeground1: '#ffffff',
  colorBrandForeground2: '#ece8f4',
  colorBrandForegroundLink: '#d9ccff',
  colorBrandForegroundLinkHover: '#ffffff',
  colorBrandStroke1: '#ffffff',
  colorBrandStroke2: '#8f8a99',
  colorCompoundBrandBackground: '#ffffff',
  colorCompoundBrandBackgroundHover: '#ebe7f3',
  colorCompoundBrandBackgroundPressed: '#d6d0e2',
  colorCompoundBrandForeground1: '#ffffff',
  colorCompoundBrandForeground1Hover: '#ebe7f3',
  colorCompoundBrandForeground1Pressed: '#d6d0e2',
  colorCompoundBrandStroke: '#ffffff',
  colorCompoundBrandStrokeHover: '#ebe7f3',
  colorCompoundBrandStrokePressed: '#d6d0e2',
};

const DARK_QUERY = '(prefers-color-scheme: dark)';

const systemMode = (): ThemeMode =>
  typeof window !== 'undefined' && window.matchMedia?.(DARK_QUERY).matches ? 'dark' : 'light';

/** The theme in force: the stored choice, else the system's (followed live until the user toggles). */
export const useThemeMode = (): ThemeMode => {
  const stored = usePreferences((s) => s.theme);
  const [system, setSystem] = useState<ThemeMode>(systemMode);
  useEffect(() => {
    const query = window.matchMedia?.(DARK_QUERY);
    if (!query) return;
    const onChange = () => setSystem(query.matches ? 'dark' : 'light');
    query.addEventListener?.('change', onChange);
    return () => query.removeEventListener?.('change', onChange);
  }, []);
  return stored ?? system;
};

export const themeFor = (mode: ThemeMode): Theme => (mode === 'dark' ? darkTheme : lightTheme);
