import { lazy, Suspense } from 'react';
import {
  Button,
  makeStyles,
  Menu,
  MenuDivider,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  Avatar,
  Popover,
  PopoverSurface,
  PopoverTrigger,
  Slider,
  Text,
  tokens,
  Tooltip,
} from '@fluentui/react-components';
import {
  ArrowClockwise20Regular,
  Navigation20Regular,
  Person20Regular,
  SignOut20Regular,
  Speaker220Regular,
  SpeakerMute20Regular,
  WeatherMoon20Regular,
  WeatherSunny20Regular,
} from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import type { Language } from '@atrium/shared';
import { authApi, logout } from '../../api/auth';
import { loadNamespaces } from '../../i18n';
import { formatDate } from '../../i18n/format';
import { LanguageMenu } from '../../components/language-menu';
import { useAuthStore } from '../../stores/auth-store';
import { usePreferences } from '../../stores/preferences-store';
import { useUiStore } from '../../stores/ui-store';
import { useThemeMode } from '../theme';
import { TopBarSlots } from './top-bar-slots';

// With the users strings it shows, fetched alongside.
const ProfileDialog = lazy(async () => (await Promise.all([import('../../features/users/components/profile-dialog'), loadNamespaces('users')]))[0]);

const useStyles = makeStyles({
  root: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalXS,
    minHeight: '52px',
    padding: `0 ${tokens.spacingHorizontalM}`,
    backgroundColor: tokens.colorNeutralBackground1,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
    boxSizing: 'border-box',
  },
  greeting: {
    flex: 1,
    minWidth: 0,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    paddingLeft: tokens.spacingHorizontalS,
  },
  activeUntil: { color: tokens.colorNeutralForeground3, marginLeft: tokens.spacingHorizontalS },
  volume: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, padding: tokens.spacingVerticalS },
});

export function ThemeToggle() {
  const { t } = useTranslation();
  const mode = useThemeMode();
  const setPreference = usePreferences((s) => s.set);
  const label = mode === 'dark' ? t('layout.lightMode') : t('layout.darkMode');
  return (
    <Tooltip content={label} relationship="label">
      <Button
        appearance="subtle"
        aria-label={label}
        data-testid="theme-toggle"
        icon={mode === 'dark' ? <WeatherSunny20Regular /> : <WeatherMoon20Regular />}
        onClick={() => setPreference('theme', mode === 'dark' ? 'light' : 'dark')}
      />
    </Tooltip>
  );
}

export function VolumeControl() {
  const styles = useStyles();
  const { t } = useTranslation();
  const volume = usePreferences((s) => s.volume);
  const setPreference = usePreferences((s) => s.set);
  return (
    <Popover positioning="below" withArrow>
      <PopoverTrigger disableButtonEnhancement>
        <Tooltip content={t('layout.volume')} relationship="label">
          <Button
            appearance="subtle"
            aria-label={t('layout.volume')}
            icon={volume === 0 ? <SpeakerMute20Regular /> : <Speaker220Regular />}
          />
        </Tooltip>
      </PopoverTrigger>
      <PopoverSurface>
        <div className={styles.volume}>
          <SpeakerMute20Regular />
          <Slider
            aria-label={t('layout.volume')}
            min={0}
            max={1}
            step={0.1}
            value={volume}
            onChange={(_, data) => setPreference('volume', Math.round(data.value * 10) / 10)}
          />
          <Speaker220Regular />
        </div>
      </PopoverSurface>
    </Popover>
  );
}

function UserMenu() {
  const { t } = useTranslation();
  const user = useAuthStore((s) => s.user);
  const profileOpen = useUiStore((s) => s.profileOpen);
  const setProfileOpen = useUiStore((s) => s.setProfileOpen);
  return (
    <>
      <Menu positioning="below-end">
        <MenuTrigger disableButtonEnhancement>
          <Tooltip content={t('layout.userMenu')} relationship="label">
            <Button
              appearance="subtle"
              aria-label={t('layout.userMenu')}
              data-testid="user-menu"
              icon={<Avatar name={user?.name} size={24} color="colorful" />}
            />
          </Tooltip>
        </MenuTrigger>
        <MenuPopover>
          <MenuList>
            <MenuItem icon={<Person20Regular />} onClick={() => setProfileOpen(true)}>
              {t('layout.profile')}
            </MenuItem>
            <MenuDivider />
            <MenuItem icon={<SignOut20Regular />} onClick={() => void logout()} data-testid="logout">
              {t('layout.logout')}
            </MenuItem>
          </MenuList>
        </MenuPopover>
      </Menu>
      {profileOpen ? (
        <Suspense fallback={null}>
          <ProfileDialog open={profileOpen} onOpenChange={setProfileOpen} />
        </Suspense>
      ) : null}
    </>
  );
}

export function Greeting() {
  const styles = useStyles();
  const { t } = useTranslation();
  const user = useAuthStore((s) => s.user);
  if (!user) return null;
  const dueDate = user.company?.dueDate;
  return (
    <Text className={styles.greeting} data-testid="greeting">
      {t('layout.greeting', { name: user.name, company: user.company?.name ?? '' })}
      {user.profile === 'admin' && dueDate ? (
        <span className={styles.activeUntil} data-testid="active-until">
          ({t('layout.activeUntil', { date: formatDate(dueDate) })})
        </span>
      ) : null}
    </Text>
  );
}

/** The top bar (spec 01 section 2). */
export function TopBar({ onToggleMenu, compact }: { onToggleMenu: () => void; compact?: boolean }) {
  const styles = useStyles();
  const { t } = useTranslation();
  const signedIn = useAuthStore((s) => s.status === 'authenticated');
  const tellServer = (language: Language) => {
    if (signedIn) void authApi.setLanguage(language).catch(() => undefined);
  };
  return (
    <header className={styles.root} data-testid="top-bar">
      <Tooltip content={t('layout.toggleMenu')} relationship="label">
        <Button appearance="subtle" icon={<Navigation20Regular />} aria-label={t('layout.toggleMenu')} onClick={onToggleMenu} />
      </Tooltip>
      {compact ? <span style={{ flex: 1 }} /> : <Greeting />}
      <LanguageMenu onChanged={tellServer} />
      <ThemeToggle />
      <VolumeControl />
      <Tooltip content={t('layout.refresh')} relationship="label">
        <Button
          appearance="subtle"
          aria-label={t('layout.refresh')}
          icon={<ArrowClockwise20Regular />}
          onClick={() => window.location.reload()}
        />
      </Tooltip>
      <TopBarSlots />
      <UserMenu />
    </header>
  );
}
