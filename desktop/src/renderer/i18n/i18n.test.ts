import { describe, expect, it } from 'vitest';
import { DEFAULT_LANGUAGE, FALLBACK_LANGUAGE, LANGUAGES } from '@atrium/shared';
import { formatDate, formatDateTime, formatListTime } from './format';
import { i18n, resources } from './index';

/** Every key path of a resource tree. */
const paths = (tree: unknown, prefix = ''): string[] =>
  tree && typeof tree === 'object'
    ? Object.entries(tree).flatMap(([key, value]) => paths(value, prefix ? `${prefix}.${key}` : key))
    : [prefix];

describe('i18n', () => {
  it('uses en by default and pt as the fallback', () => {
    expect(DEFAULT_LANGUAGE).toBe('en');
    expect(FALLBACK_LANGUAGE).toBe('pt');
    expect(i18n.options.fallbackLng).toEqual(['pt']);
  });

  it('collects the core strings and every feature’s strings, in every language, with the same keys', () => {
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

  it('gives every feature page a title in each language', () => {
    for (const lang of LANGUAGES) {
      for (const [ns, strings] of Object.entries(resources[lang])) {
        if (ns === 'common' || ns === 'auth') continue;
        expect(typeof (strings as Record<string, unknown>).title, `${lang}/${ns}`).toBe('string');
      }
    }
  });

  it('falls back to pt for a key only pt has', () => {
    i18n.addResource('pt', 'common', 'onlyPt', 'só em português');
    expect(i18n.t('onlyPt', { lng: 'en' })).toBe('só em português');
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
