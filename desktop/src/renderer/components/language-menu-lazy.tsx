import { lazy, Suspense, useState } from 'react';
import { LanguageButton } from './language-button';

const load = () => import('./language-menu');
const LanguageMenu = lazy(() => load().then((m) => ({ default: m.LanguageMenu })));

/**
 * The public pages' language menu, fetched when it is first wanted: the menu, its popover, positioning and
 * keyboard navigation are a third of the login screen's code, and a first visit rarely opens it. Until then
 * a button that looks and is named the same stands in; pointing at it or focusing it fetches the menu, a
 * click mounts the menu open (it focuses its first item, and gives focus back to its own button on close).
 */
export function LazyLanguageMenu({ showLabel }: { showLabel?: boolean }) {
  const [wanted, setWanted] = useState(false);
  const placeholder = (
    <LanguageButton
      showLabel={showLabel}
      aria-haspopup="menu"
      aria-expanded={false}
      onPointerEnter={() => void load()}
      onFocus={() => void load()}
      onClick={() => setWanted(true)}
    />
  );
  if (!wanted) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      <LanguageMenu showLabel={showLabel} defaultOpen />
    </Suspense>
  );
}
