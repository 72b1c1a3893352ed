import { lazy, Suspense, type ReactNode } from 'react';
import { makeStyles, Text, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { Copyright } from '../../../components/copyright';
import { LazyLanguageMenu } from '../../../components/language-menu-lazy';
import { isDesktop } from '../../../platform';

/** Desktop only (the server's address and its dialog): the web's login screen does not fetch it. */
const ServerAddress = lazy(() => import('./server-address').then((m) => ({ default: m.ServerAddress })));

const useStyles = makeStyles({
  root: {
    minHeight: '100vh',
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    backgroundColor: tokens.colorNeutralBackground2,
    padding: tokens.spacingHorizontalL,
    boxSizing: 'border-box',
  },
  bar: { alignSelf: 'stretch', display: 'flex', justifyContent: 'flex-end', gap: tokens.spacingHorizontalS },
  center: { flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center', width: '100%' },
  // A card's look without Fluent's Card, whose focus handling (tabster) would be most of the login's code.
  card: {
    width: '100%',
    maxWidth: '420px',
    boxSizing: 'border-box',
    display: 'flex',
    flexDirection: 'column',
    padding: tokens.spacingHorizontalXXL,
    gap: tokens.spacingVerticalL,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorNeutralForeground1,
    boxShadow: tokens.shadow4,
    // Forced colours (Windows high contrast) drop shadows: a border keeps the card's edge.
    border: `${tokens.strokeWidthThin} solid ${tokens.colorTransparentStroke}`,
  },
  brand: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM, justifyContent: 'center' },
  logo: {
    width: '44px',
    height: '44px',
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorBrandBackground,
    color: tokens.colorNeutralForegroundOnBrand,
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    fontSize: tokens.fontSizeBase600,
    fontWeight: tokens.fontWeightBold,
  },
  heading: { display: 'flex', flexDirection: 'column', alignItems: 'center', gap: tokens.spacingVerticalXS, textAlign: 'center' },
  subtitle: { color: tokens.colorNeutralForeground3 },
  footer: { padding: tokens.spacingVerticalL },
});

/** The frame of the public pages: language menu, a centred card, the copyright line. */
export function AuthLayout({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  const styles = useStyles();
  const { t } = useTranslation();
  return (
    <div className={styles.root}>
      <div className={styles.bar}>
        {isDesktop() && (
          <Suspense fallback={null}>
            <ServerAddress />
          </Suspense>
        )}
        <LazyLanguageMenu showLabel />
      </div>
      <main className={styles.center}>
        <div className={styles.card}>
          <div className={styles.brand}>
            <span className={styles.logo} aria-hidden>
              A
            </span>
            <Text size={700} weight="bold">
              {t('app.name')}
            </Text>
          </div>
          <div className={styles.heading}>
            <Text as="h1" size={500} weight="semibold" style={{ margin: 0 }}>
              {title}
            </Text>
            {subtitle ? <Text className={styles.subtitle}>{subtitle}</Text> : null}
          </div>
          {children}
        </div>
      </main>
      <footer className={styles.footer}>
        <Copyright />
      </footer>
    </div>
  );
}
