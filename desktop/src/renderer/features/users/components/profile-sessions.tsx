import { Button, Caption1, makeStyles, Spinner, Text, tokens } from '@fluentui/react-components';
import { Desktop20Regular, Globe20Regular, Phone20Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { authApi } from '../../../api/auth';
import { useQuery } from '../../../api/query';
import { toast } from '../../../components/toasts';
import { formatDateTime } from '../../../i18n/format';
import { useSaving } from '../../../hooks/use-saving';

const useStyles = makeStyles({
  list: { display: 'flex', flexDirection: 'column', gap: '8px', margin: 0, padding: 0, listStyle: 'none' },
  item: {
    display: 'flex',
    alignItems: 'center',
    gap: '8px',
    padding: '6px 8px',
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  text: { display: 'flex', flexDirection: 'column', flex: 1, minWidth: 0 },
  name: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
});

type Device = { kind: 'desktop' | 'phone' | 'browser'; browser: string | null; os: string | null };

/** What a person recognises in a user agent: the desktop app, or the browser and system. */
export const deviceOf = (userAgent: string | null): Device => {
  const ua = userAgent ?? '';
  const os = /Android/.test(ua) ? 'Android' : /iPhone|iPad/.test(ua) ? 'iOS' : /Windows/.test(ua) ? 'Windows' : /Mac OS X|Macintosh/.test(ua) ? 'macOS' : /Linux|X11/.test(ua) ? 'Linux' : null;
  if (/Electron/.test(ua)) return { kind: 'desktop', browser: null, os };
  const browser = /Edg\//.test(ua) ? 'Edge' : /Firefox\//.test(ua) ? 'Firefox' : /Chrome\//.test(ua) ? 'Chrome' : /Safari\//.test(ua) ? 'Safari' : null;
  return { kind: os === 'Android' || os === 'iOS' ? 'phone' : 'browser', browser, os };
};

/**
 * The profile's "Sessions": where this user is signed in, most recent first, each but this one with a way
 * to end it (a lost phone, a shared computer). How many at once is the company's setting.
 */
export function ProfileSessions() {
  const { t } = useTranslation('users');
  const sessions = useQuery(['auth-sessions'], authApi.sessions);
  const { saving, run } = useSaving();
  const styles = useStyles();

  const end = (id: string) =>
    run(async () => {
      await authApi.endSession(id);
      sessions.setData((old) => old && { ...old, sessions: old.sessions.filter((s) => s.id !== id) });
      toast.success(t('sessions.ended'));
    });

  if (!sessions.data) return sessions.isLoading ? <Spinner size="tiny" /> : null;
  return (
    <section aria-labelledby="profile-sessions-title" data-testid="profile-sessions">
      <Text as="h3" id="profile-sessions-title" weight="semibold" block>
        {t('sessions.title')}
      </Text>
      <Caption1 block style={{ marginBottom: 8 }}>
        {t('sessions.allowed', { count: sessions.data.allowed })}
      </Caption1>
      <ul className={styles.list}>
        {sessions.data.sessions.map((s) => {
          const device = deviceOf(s.userAgent);
          const Icon = device.kind === 'desktop' ? Desktop20Regular : device.kind === 'phone' ? Phone20Regular : Globe20Regular;
          const app = device.kind === 'desktop' ? t('sessions.desktop') : (device.browser ?? t('sessions.unknownBrowser'));
          const name = device.os ? t('sessions.on', { app, os: device.os }) : app;
          return (
            <li key={s.id} className={styles.item} data-testid={`profile-session-${s.id}`}>
              <Icon aria-hidden />
              <span className={styles.text}>
                <Text className={styles.name} title={s.userAgent ?? undefined}>
                  {name}
                </Text>
                <Caption1>
                  {s.current ? t('sessions.current') : t('sessions.lastUsed', { at: formatDateTime(s.lastUsedAt) })}
                  {s.ip ? ` · ${s.ip}` : ''}
                </Caption1>
              </span>
              {s.current ? null : (
                <Button size="small" disabled={saving} onClick={() => void end(s.id)} data-testid={`profile-session-end-${s.id}`} aria-label={`${t('sessions.end')}: ${name}`}>
                  {t('sessions.end')}
                </Button>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
