import { forwardRef, type ButtonHTMLAttributes } from 'react';
import { Button } from '@fluentui/react-components';
import { LocalLanguage20Regular } from '@fluentui/react-icons';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { Language } from '@atrium/shared';
import { usePreferences } from '../stores/preferences-store';

/**
 * The language button's accessible name. With its label shown, it starts with what it shows (WCAG 2.5.3:
 * say what you see).
 */
export const languageButtonName = (t: TFunction, language: Language, showLabel?: boolean) =>
  showLabel ? `${t(`languages.${language}`)} (${t('layout.language')})` : t('layout.language');

/**
 * The language menu's button. Its own module, without the menu: the public pages show it as the stand-in
 * for the menu until the menu is loaded (language-menu-lazy.tsx), so both look and are named the same.
 */
export const LanguageButton = forwardRef<HTMLButtonElement, Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children'> & { showLabel?: boolean }>(
  function LanguageButton({ showLabel, ...props }, ref) {
    const { t } = useTranslation();
    const language = usePreferences((s) => s.language);
    return (
      <Button ref={ref} appearance="subtle" icon={<LocalLanguage20Regular />} aria-label={languageButtonName(t, language, showLabel)} {...props}>
        {showLabel ? t(`languages.${language}`) : null}
      </Button>
    );
  },
);
