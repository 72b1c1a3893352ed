import { useMemo, type MouseEvent } from 'react';
import {
  Badge,
  makeStyles,
  NavCategory,
  NavCategoryItem,
  NavDivider,
  NavDrawer,
  NavDrawerBody,
  NavDrawerFooter,
  NavDrawerHeader,
  NavItem,
  NavSectionHeader,
  NavSubItem,
  NavSubItemGroup,
  Text,
  tokens,
  Tooltip,
  Button,
} from '@fluentui/react-components';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { APP_VERSION } from '@atrium/shared';
import { usePlanFlags } from '../../api/company';
import { useAuthStore } from '../../stores/auth-store';
import { usePreferences } from '../../stores/preferences-store';
import { useUnreadChats } from '../../features/chats/hooks/use-unread-chats';
import { selectedMenuKey, visibleMenu, type MenuBadge, type MenuItem, type MenuSection } from '../menu';
import { useConnectionWarning } from './use-connection-warning';

const useStyles = makeStyles({
  drawer: { height: '100%', borderRight: `1px solid ${tokens.colorNeutralStroke2}` },
  brand: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, padding: `${tokens.spacingVerticalS} 0` },
  logo: {
    width: '32px',
    height: '32px',
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorBrandBackground,
    color: tokens.colorNeutralForegroundOnBrand,
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    fontWeight: tokens.fontWeightBold,
  },
  label: { flex: 1, display: 'inline-flex', alignItems: 'center', justifyContent: 'space-between', gap: tokens.spacingHorizontalS },
  footer: { justifyContent: 'center', color: tokens.colorNeutralForeground3, paddingBottom: tokens.spacingVerticalS },
  rail: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalXS,
    width: '52px',
    paddingTop: tokens.spacingVerticalS,
    height: '100%',
    overflowY: 'auto',
    borderRight: `1px solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
    boxSizing: 'border-box',
  },
  railItem: { position: 'relative' },
  railBadge: { position: 'absolute', top: '2px', right: '2px', pointerEvents: 'none' },
});

/** The menu as this user may see it, with the badges' current values. */
export function useVisibleMenu() {
  const user = useAuthStore((s) => s.user);
  const plan = usePlanFlags();
  const cshow = usePreferences((s) => s.cshow);
  const isAdmin = user?.profile === 'admin';
  const sections = useMemo(
    () => visibleMenu({ profile: user?.profile, isSuper: user?.super ?? false, plan, cshow }),
    [user?.profile, user?.super, plan, cshow],
  );
  const connectionWarning = useConnectionWarning(isAdmin);
  const unreadChats = useUnreadChats();
  const badges: Record<MenuBadge, boolean> = { connections: connectionWarning, chats: unreadChats };
  return { sections, badges };
}

function ItemBadge({ badge, active }: { badge?: MenuBadge; active: Record<MenuBadge, boolean> }) {
  const { t } = useTranslation();
  if (!badge || !active[badge]) return null;
  return badge === 'connections' ? (
    <Badge size="small" color="danger" aria-label={t('menu.connectionWarning')} data-testid="connections-warning">
      !
    </Badge>
  ) : (
    <Badge size="extra-small" color="danger" aria-label={t('menu.unreadChats')} data-testid="chats-unread" />
  );
}

export interface SideMenuProps {
  open: boolean;
  type: 'inline' | 'overlay';
  onOpenChange: (open: boolean) => void;
  /** Called after a navigation (the overlay closes). */
  onNavigate?: () => void;
}

/** The side drawer (spec 01 section 2): sections, submenus, badges and the version footer. */
export function SideMenu({ open, type, onOpenChange, onNavigate }: SideMenuProps) {
  const styles = useStyles();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { sections, badges } = useVisibleMenu();
  const selected = selectedMenuKey(pathname);

  const go = (to: string) => (event: MouseEvent) => {
    event.preventDefault();
    navigate(to);
    onNavigate?.();
  };

  const renderItem = (item: MenuItem) => {
    const Icon = item.icon;
    if (item.children) {
      return (
        <NavCategory key={item.key} value={item.key}>
          <NavCategoryItem icon={<Icon />}>{t(item.label)}</NavCategoryItem>
          <NavSubItemGroup>
            {item.children.map((child) => (
              <NavSubItem key={child.key} value={child.key} href={child.to} onClick={go(child.to ?? '/')}>
                {t(child.label)}
              </NavSubItem>
            ))}
          </NavSubItemGroup>
        </NavCategory>
      );
    }
    return (
      <NavItem key={item.key} value={item.key} href={item.to} icon={<Icon />} onClick={go(item.to ?? '/')} data-menu={item.key}>
        <span className={styles.label}>
          {t(item.label)}
          <ItemBadge badge={item.badge} active={badges} />
        </span>
      </NavItem>
    );
  };

  const renderSection = (section: MenuSection, index: number) => (
    <div key={section.key} role="group" aria-label={section.title ? t(section.title) : undefined}>
      {index > 0 ? <NavDivider /> : null}
      {section.title ? <NavSectionHeader>{t(section.title)}</NavSectionHeader> : null}
      {section.items.map(renderItem)}
    </div>
  );

  const openCategories = sections.flatMap((s) =>
    s.items.filter((i) => i.children?.some((c) => c.key === selected)).map((i) => i.key),
  );

  return (
    <NavDrawer
      open={open}
      type={type}
      onOpenChange={(_, data) => onOpenChange(data.open)}
      selectedValue={selected ?? ''}
      defaultOpenCategories={openCategories}
      className={styles.drawer}
      aria-label={t('menu.label')}
      // Over the page (a narrow window) the menu is a modal dialog: Fluent marks it aria-modal, which a
      // navigation landmark may not carry (axe: aria-allowed-attr, critical).
      role={type === 'overlay' ? 'dialog' : undefined}
      data-testid="side-menu"
    >
      <NavDrawerHeader>
        <div className={styles.brand}>
          <span className={styles.logo} aria-hidden>
            A
          </span>
          <Text weight="semibold" size={500}>
            {t('app.name')}
          </Text>
        </div>
      </NavDrawerHeader>
      <NavDrawerBody>{sections.map(renderSection)}</NavDrawerBody>
      <NavDrawerFooter className={styles.footer}>
        <Text size={200} data-testid="app-version">
          {t('app.version', { version: APP_VERSION })}
        </Text>
      </NavDrawerFooter>
    </NavDrawer>
  );
}

/** The collapsed drawer on wide screens: one icon per entry (submenus flattened), labels as tooltips. */
export function MenuRail({ onNavigate }: { onNavigate?: () => void }) {
  const styles = useStyles();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { sections, badges } = useVisibleMenu();
  const selected = selectedMenuKey(pathname);
  const items = sections.flatMap((s) => s.items.flatMap((i) => (i.children ? i.children : [i])));
  return (
    <nav className={styles.rail} aria-label={t('menu.label')} data-testid="menu-rail">
      {items.map((item) => {
        const Icon = item.icon;
        return (
          <Tooltip key={item.key} content={t(item.label)} relationship="label" positioning="after">
            <span className={styles.railItem}>
              <Button
                as="a"
                href={item.to}
                appearance={selected === item.key ? 'primary' : 'subtle'}
                icon={<Icon />}
                aria-current={selected === item.key ? 'page' : undefined}
                onClick={(event: MouseEvent) => {
                  event.preventDefault();
                  navigate(item.to ?? '/');
                  onNavigate?.();
                }}
              />
              {item.badge && badges[item.badge] ? (
                <Badge className={styles.railBadge} size="extra-small" color="danger" aria-hidden />
              ) : null}
            </span>
          </Tooltip>
        );
      })}
    </nav>
  );
}
