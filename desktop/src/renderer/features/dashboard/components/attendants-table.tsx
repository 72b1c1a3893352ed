import {
  RatingDisplay,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  makeStyles,
  mergeClasses,
  tokens,
} from '@fluentui/react-components';
import { RATING_MAX } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { useResponsiveTable } from '../../../components/responsive';
import type { DashboardAttendant } from '../api/dashboard';
import { formatMinutes } from './format';

const useStyles = makeStyles({
  card: {
    padding: tokens.spacingHorizontalL,
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusLarge,
    boxShadow: tokens.shadow4,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
  },
  // A large team scrolls inside the card, so the charts stay in reach.
  scroller: { maxHeight: '420px', overflow: 'auto' },
  status: { display: 'inline-flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  dot: { width: '10px', height: '10px', borderRadius: '50%', flexShrink: 0 },
  online: { backgroundColor: tokens.colorPaletteGreenBackground3 },
  offline: { backgroundColor: tokens.colorPaletteRedBackground3 },
});

/** Every user of the company: rating as 0-3 stars, average support time, cycles, online dot. */
export function AttendantsTable({ attendants }: { attendants: readonly DashboardAttendant[] }) {
  const styles = useStyles();
  const { t } = useTranslation('dashboard');
  const narrow = useResponsiveTable();
  return (
    <section className={styles.card} aria-label={t('attendants.title')}>
      <Text as="h2" size={400} weight="semibold" style={{ margin: 0 }}>
        {t('attendants.title')}
      </Text>
      <div className={styles.scroller}>
        <Table size="small" data-testid="attendants">
          <TableHeader>
            <TableRow>
              <TableHeaderCell>{t('attendants.name')}</TableHeaderCell>
              <TableHeaderCell className={narrow.secondary}>{t('attendants.rating')}</TableHeaderCell>
              <TableHeaderCell className={narrow.secondary}>{t('attendants.avgSupportTime')}</TableHeaderCell>
              <TableHeaderCell>{t('attendants.tickets')}</TableHeaderCell>
              <TableHeaderCell>{t('attendants.status')}</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {attendants.map((a) => (
              <TableRow key={a.id} data-testid={`attendant-${a.id}`}>
                <TableCell>{a.name}</TableCell>
                <TableCell className={narrow.secondary}>
                  <RatingDisplay
                    value={Math.min(RATING_MAX, Math.max(0, a.rating))}
                    max={RATING_MAX}
                    size="small"
                    aria-label={t('attendants.stars', { value: a.rating, max: RATING_MAX })}
                    valueText={null}
                  />
                </TableCell>
                <TableCell className={narrow.secondary}>{formatMinutes(a.avgSupportTime)}</TableCell>
                <TableCell>{a.tickets}</TableCell>
                <TableCell>
                  <span className={styles.status}>
                    <span
                      className={mergeClasses(styles.dot, a.online ? styles.online : styles.offline)}
                      data-testid="online-dot"
                      data-online={a.online}
                    />
                    {a.online ? t('attendants.online') : t('attendants.offline')}
                  </span>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </section>
  );
}
