import i18next, { type i18n as I18n, type Resource, type ResourceLanguage } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, FALLBACK_LANGUAGE, LANGUAGES, type Language } from '@atrium/shared';

/**
 * Strings come from two places, collected at build time so nobody edits a shared list:
 * - i18n/locales/{lang}.ts: the `common` namespace (menu, layout, errors, validation, actions);
 * - features/{name}/i18n/{lang}.ts: the namespace `{name}` (useTranslation('{name}')).
 */
type LocaleModule = { default: Record<string, unknown> };

const core = import.meta.glob<LocaleModule>('./locales/*.ts', { eager: true });
const features = import.meta.glob<LocaleModule>('../features/*/i18n/*.ts', { eager: true });

export const COMMON_NS = 'common';

const languageOf = (file: string): string => file.replace(/^.*\/([^/]+)\.ts$/, '$1');
const featureOf = (file: string): string => file.replace(/^.*\/features\/([^/]+)\/i18n\/.*$/, '$1');

/** The resources of every language, by namespace. Exported for the tests that check completeness. */
export const buildResources = (): Resource => {
  const resources: Record<string, ResourceLanguage> = {};
  for (const lang of LANGUAGES) resources[lang] = {};
  for (const [file, mod] of Object.entries(core)) {
    const lang = languageOf(file);
    if (resources[lang]) resources[lang][COMMON_NS] = mod.default as ResourceLanguage[string];
  }
  for (const [file, mod] of Object.entries(features)) {
    const lang = languageOf(file);
    if (resources[lang]) resources[lang][featureOf(file)] = mod.default as ResourceLanguage[string];
  }
  return resources;
};

export const resources = buildResources();
export const namespaces = [...new Set(Object.values(resources).flatMap((r) => Object.keys(r)))];

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

/** Initialised synchronously: the resources are bundled, so the first render already has its strings. */
export const initI18n = (language: Language = DEFAULT_LANGUAGE): I18n => {
  if (!i18next.isInitialized) {
    void i18next.use(initReactI18next).init({
      resources,
      lng: language,
      fallbackLng: FALLBACK_LANGUAGE,
      supportedLngs: [...LANGUAGES],
      ns: namespaces,
      defaultNS: COMMON_NS,
      fallbackNS: COMMON_NS,
      interpolation: { escapeValue: false },
      returnNull: false,
      initAsync: false,
    });
  } else if (i18next.language !== language) {
    void i18next.changeLanguage(language);
  }
  document.documentElement.lang = language;
  return i18next;
};

export const changeLanguage = async (language: Language): Promise<void> => {
  await i18next.changeLanguage(language);
  document.documentElement.lang = language;
};

export { i18next as i18n };
