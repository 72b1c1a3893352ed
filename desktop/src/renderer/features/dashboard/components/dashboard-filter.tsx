import { useState } from 'react';
import { Button, Field, Select, makeStyles, tokens } from '@fluentui/react-components';
import { Filter20Regular } from '@fluentui/react-icons';
import { DASHBOARD_PERIODS } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../components/toasts';
import { DateInput } from '../../../components/form/date-time-inputs';
import { dashboardParams, type DashboardFilter, type DashboardParams, type FilterType } from '../api/dashboard';

const useStyles = makeStyles({
  root: {
    display: 'flex',
    alignItems: 'flex-end',
    gap: tokens.spacingHorizontalM,
    flexWrap: 'wrap',
    padding: tokens.spacingHorizontalL,
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusLarge,
    boxShadow: tokens.shadow4,
  },
});

/**
 * A date range or one of the periods; applying a filter that asks for nothing (period 0, no valid
 * date) is refused with the select-filter error (spec 01 section 5).
 */
export function DashboardFilterBar({ initial, onApply }: { initial: DashboardFilter; onApply: (params: DashboardParams) => void }) {
  const styles = useStyles();
  const { t } = useTranslation('dashboard');
  const [filter, setFilter] = useState(initial);
  const set = (patch: Partial<DashboardFilter>) => setFilter((f) => ({ ...f, ...patch }));

  const apply = () => {
    const params = dashboardParams(filter);
    if (!params) {
      toast.error(t('selectFilterError'));
      return;
    }
    onApply(params);
  };

  return (
    <form noValidate
      className={styles.root}
      aria-label={t('filter.title')}
      onSubmit={(e) => {
        e.preventDefault();
        apply();
      }}
    >
      <Field label={t('filter.type')} size="small">
        <Select size="small" value={filter.type} data-testid="filter-type" onChange={(_, d) => set({ type: d.value as FilterType })}>
          <option value="date">{t('filter.byDate')}</option>
          <option value="period">{t('filter.byPeriod')}</option>
        </Select>
      </Field>
      {filter.type === 'period' ? (
        <Field label={t('filter.period')} size="small">
          <Select size="small" value={String(filter.days)} data-testid="filter-days" onChange={(_, d) => set({ days: Number(d.value) })}>
            {DASHBOARD_PERIODS.map((days) => (
              <option key={days} value={days}>
                {days === 0 ? t('filter.noPeriod') : t('filter.lastDays', { count: days })}
              </option>
            ))}
          </Select>
        </Field>
      ) : (
        <>
          <Field label={t('filter.dateFrom')} size="small">
            {/* The app's own dd/MM/yyyy field, as the charts' below: the browser's date box follows the
                browser's locale (MM/dd/yyyy in English) and the page showed both formats. */}
            <DateInput size="small" value={filter.dateFrom} data-testid="filter-from" onChange={(value) => set({ dateFrom: value })} />
          </Field>
          <Field label={t('filter.dateTo')} size="small">
            <DateInput size="small" value={filter.dateTo} data-testid="filter-to" onChange={(value) => set({ dateTo: value })} />
          </Field>
        </>
      )}
      <Button type="submit" appearance="primary" size="small" icon={<Filter20Regular />} data-testid="filter-apply">
        {t('filter.apply')}
      </Button>
    </form>
  );
}
