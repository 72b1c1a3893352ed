import i18next, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '@atrium/shared';

/**
 * Strings come from two places, collected at build time so nobody edits a shared list:
 * - i18n/locales/{lang}.ts: the `common` namespace (menu, layout, errors, validation, actions);
 * - features/{name}/i18n/{lang}.ts: the namespace `{name}` (useTranslation('{name}')).
 * Each file is its own chunk (vite.config.ts), fetched when first needed: the first screen loads the
 * chosen language's `common` and its page's namespace, never the other languages or pages.
 */
type LocaleModule = { default: ResourceKey };
type Loader = () => Promise<LocaleModule>;

const core = import.meta.glob<LocaleModule>('./locales/*.ts');
const features = import.meta.glob<LocaleModule>('../features/*/i18n/*.ts');

export const COMMON_NS = 'common';

const languageOf = (file: string): string => file.replace(/^.*\/([^/]+)\.ts$/, '$1');
const featureOf = (file: string): string => file.replace(/^.*\/features\/([^/]+)\/i18n\/.*$/, '$1');

/** `{language}/{namespace}` → the file's loader. */
const loaders = new Map<string, Loader>();
for (const [file, load] of Object.entries(core)) loaders.set(`${languageOf(file)}/${COMMON_NS}`, load);
for (const [file, load] of Object.entries(features)) loaders.set(`${languageOf(file)}/${featureOf(file)}`, load);

/** Every namespace that has strings (common and one per feature with an i18n folder). */
export const namespaces = [...new Set([...loaders.keys()].map((key) => key.slice(key.indexOf('/') + 1)))];

/** One language's strings of one namespace (undefined when that file does not exist). */
export const loadStrings = async (language: string, namespace: string): Promise<ResourceKey | undefined> =>
  (await loaders.get(`${language}/${namespace}`)?.())?.default;

/**
 * Every language's strings by namespace, for the tests that check completeness (the same files the app
 * loads, so the keys have one source of truth).
 */
export const loadAllResources = async (): Promise<Record<string, Record<string, ResourceKey>>> => {
  const all: Record<string, Record<string, ResourceKey>> = {};
  for (const lang of LANGUAGES) all[lang] = {};
  await Promise.all(
    [...loaders.entries()].map(async ([key, load]) => {
      const [lang, ns] = key.split('/') as [string, string];
      if (all[lang]) all[lang][ns] = (await load()).default;
    }),
  );
  return all;
};

/** i18next's loader: a namespace of a language comes from its own chunk, on first use. */
const chunkBackend: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read: (language, namespace, callback) => {
    loadStrings(language, namespace).then(
      // A namespace without strings of its own (or a language we do not ship) is empty, not an error.
      (strings) => callback(null, strings ?? {}),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

let ready: Promise<unknown> | undefined;

/**
 * Sets i18next up and loads the chosen language's common strings; the first render waits for it. Pages
 * load their namespace with their chunk (app/routes.tsx); anything else using a namespace not loaded yet
 * suspends until it is (react-i18next). There is no fallback language: every language has every key
 * (the types and i18n.test.ts check it), so another language is never fetched for nothing.
 */
export const initI18n = (language: Language = DEFAULT_LANGUAGE, pageNamespaces: string[] = []): Promise<unknown> => {
  if (!ready) {
    ready = i18next
      .use(chunkBackend)
      .use(initReactI18next)
      .init({
        lng: language,
        fallbackLng: false,
        supportedLngs: [...LANGUAGES],
        // The first page's strings in the same round as the common ones.
        ns: [COMMON_NS, ...pageNamespaces],
        defaultNS: COMMON_NS,
        fallbackNS: COMMON_NS,
        interpolation: { escapeValue: false },
        returnNull: false,
        // Fetch at once, not on the next tick: the start is busy and the first render waits for these.
        initAsync: false,
      });
  } else if (i18next.language !== language) {
    ready = ready.then(() => i18next.changeLanguage(language));
  }
  document.documentElement.lang = language;
  return ready;
};

/** Loads these namespaces in the current language (a page's strings, alongside its chunk). */
export const loadNamespaces = async (names: string | string[]): Promise<void> => {
  // Called as early as the start (a page fetched alongside the common strings): after the set-up.
  await ready;
  await i18next.loadNamespaces(names);
};

/** Switches language: the new language's strings of every namespace in use are fetched first, then the screen updates. */
export const changeLanguage = async (language: Language): Promise<void> => {
  await i18next.changeLanguage(language);
  document.documentElement.lang = language;
};

export { i18next as i18n };
