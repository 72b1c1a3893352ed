import { Menu, MenuItemRadio, MenuList, MenuPopover, MenuTrigger, Tooltip } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '@atrium/shared';
import { changeLanguage } from '../i18n';
import { LanguageButton } from './language-button';
import { usePreferences } from '../stores/preferences-store';

export interface LanguageMenuProps {
  /** Runs after the switch (the top bar also tells the server). */
  onChanged?: (language: Language) => void;
  /** Shows the language name next to the icon. */
  showLabel?: boolean;
  /** Opens at mount (the public pages mount it on the first click: see language-menu-lazy.tsx). */
  defaultOpen?: boolean;
}

/** Picks the interface language (pt, en, es) and remembers it on this device. */
export function LanguageMenu({ onChanged, showLabel, defaultOpen }: LanguageMenuProps) {
  const { t } = useTranslation();
  const language = usePreferences((s) => s.language);
  const setPreference = usePreferences((s) => s.set);
  const select = async (next: Language) => {
    if (next === language) return;
    setPreference('language', next);
    await changeLanguage(next);
    onChanged?.(next);
  };
  return (
    <Menu
      defaultOpen={defaultOpen}
      checkedValues={{ language: [language] }}
      onCheckedValueChange={(_, data) => void select(data.checkedItems[0] as Language)}
    >
      <MenuTrigger disableButtonEnhancement>
        {/* With its label shown, the button's name starts with what it shows (WCAG 2.5.3: say what you see). */}
        <Tooltip content={t('layout.language')} relationship={showLabel ? 'description' : 'label'}>
          <LanguageButton showLabel={showLabel} />
        </Tooltip>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          {LANGUAGES.map((lang) => (
            <MenuItemRadio key={lang} name="language" value={lang}>
              {t(`languages.${lang}`)}
            </MenuItemRadio>
          ))}
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}
