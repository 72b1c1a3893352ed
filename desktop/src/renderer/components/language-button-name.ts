import type { TFunction } from 'i18next';
import type { Language } from '@atrium/shared';

/**
 * The language button's accessible name. With its label shown, it starts with what it shows (WCAG 2.5.3:
 * say what you see). Its own module: the public pages name their placeholder button without loading the menu.
 */
export const languageButtonName = (t: TFunction, language: Language, showLabel?: boolean) =>
  showLabel ? `${t(`languages.${language}`)} (${t('layout.language')})` : t('layout.language');
