import { lazy, Suspense, useState } from 'react';
import { Button } from '@fluentui/react-components';
import { LocalLanguage20Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { usePreferences } from '../stores/preferences-store';
import { languageButtonName } from './language-button-name';

const load = () => import('./language-menu');
const LanguageMenu = lazy(() => load().then((m) => ({ default: m.LanguageMenu })));

/**
 * The public pages' language menu, fetched when it is first wanted: the menu, its popover, positioning and
 * keyboard navigation are a third of the login screen's code, and a first visit rarely opens it. Until then
 * a button that looks and is named the same stands in; pointing at it or focusing it fetches the menu, a
 * click mounts the menu open (it focuses its first item, and gives focus back to its own button on close).
 */
export function LazyLanguageMenu({ showLabel }: { showLabel?: boolean }) {
  const { t } = useTranslation();
  const language = usePreferences((s) => s.language);
  const [wanted, setWanted] = useState(false);
  const placeholder = (
    <Button
      appearance="subtle"
      icon={<LocalLanguage20Regular />}
      aria-label={languageButtonName(t, language, showLabel)}
      aria-haspopup="menu"
      aria-expanded={false}
      onPointerEnter={() => void load()}
      onFocus={() => void load()}
      onClick={() => setWanted(true)}
    >
      {showLabel ? t(`languages.${language}`) : null}
    </Button>
  );
  if (!wanted) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      <LanguageMenu showLabel={showLabel} defaultOpen />
    </Suspense>
  );
}
