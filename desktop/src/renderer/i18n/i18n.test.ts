import { describe, expect, it } from 'vitest';
import { DEFAULT_LANGUAGE, LANGUAGES } from '@atrium/shared';
import { formatDate, formatDateTime, formatListTime } from './format';
import { i18n, loadAllResources, loadStrings, namespaces } from './index';

/** Every key path of a resource tree. */
const paths = (tree: unknown, prefix = ''): string[] =>
  tree && typeof tree === 'object'
    ? Object.entries(tree).flatMap(([key, value]) => paths(value, prefix ? `${prefix}.${key}` : key))
    : [prefix];

describe('i18n', () => {
  it('uses en by default and no fallback language (every language has every key, so none is fetched for nothing)', () => {
    expect(DEFAULT_LANGUAGE).toBe('en');
    expect(i18n.options.fallbackLng).toBe(false);
  });

  it('collects the core strings and every feature’s strings, in every language, with the same keys', async () => {
    const resources = await loadAllResources();
    const namespaces = Object.keys(resources.en);
    expect(namespaces).toContain('common');
    expect(namespaces).toEqual(expect.arrayContaining(['auth', 'tickets', 'campaigns', 'users', 'flowbuilder']));
    for (const ns of namespaces) {
      const english = paths(resources.en[ns]).sort();
      for (const lang of LANGUAGES) {
        expect(paths(resources[lang][ns]).sort(), `${lang}/${ns}`).toEqual(english);
      }
    }
  });

  it('gives every feature page a title in each language', async () => {
    const resources = await loadAllResources();
    for (const lang of LANGUAGES) {
      for (const [ns, strings] of Object.entries(resources[lang])) {
        if (ns === 'common' || ns === 'auth') continue;
        expect(typeof (strings as Record<string, unknown>).title, `${lang}/${ns}`).toBe('string');
      }
    }
  });

  it('loads one language’s namespace on its own, and knows every namespace', async () => {
    expect(namespaces).toEqual(expect.arrayContaining(['common', 'auth', 'tickets']));
    expect(await loadStrings('es', 'auth')).toMatchObject({ login: { password: 'Contraseña' } });
    expect(await loadStrings('es', 'no-such-feature')).toBeUndefined();
  });
});

describe('dates', () => {
  it('shows dd/MM/yyyy', () => {
    expect(formatDate('2024-03-07')).toBe('07/03/2024');
    expect(formatDate(new Date(2025, 11, 31, 23, 59))).toBe('31/12/2025');
    expect(formatDateTime(new Date(2025, 0, 2, 8, 5))).toBe('02/01/2025 08:05');
    expect(formatDate(null)).toBe('');
    expect(formatDate('not a date')).toBe('');
  });

  it('lists today as HH:mm and other days as dd/MM/yyyy', () => {
    const now = new Date();
    now.setHours(9, 41, 0, 0);
    expect(formatListTime(now)).toBe('09:41');
    expect(formatListTime(new Date(2020, 4, 6, 9, 41))).toBe('06/05/2020');
  });
});
