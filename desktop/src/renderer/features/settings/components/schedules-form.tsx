import { useEffect, useState } from 'react';
import { Button, Field, Spinner, Text, makeStyles, tokens } from '@fluentui/react-components';
import { TimeInput } from '../../../components/form/date-time-inputs';
import { WEEKDAYS, updateCompanySchedulesSchema } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { useQuery } from '../../../api/query';
import { toast } from '../../../components/toasts';
import { validate } from '../../../components/form/validation';
import { companySchedulesKey, settingsApi, type CompanySchedule } from '../api/settings';
import { useSaving } from '../../../hooks/use-saving';

const useStyles = makeStyles({
  grid: { display: 'grid', gridTemplateColumns: 'minmax(140px, 1fr) 140px 140px', gap: tokens.spacingHorizontalM, alignItems: 'center', maxWidth: '560px' },
});

/** The 7 weekdays with HH:MM start and end (PUT /companies/{id}/schedules). */
export const fillWeek = (saved: readonly CompanySchedule[]): CompanySchedule[] =>
  WEEKDAYS.map((d) => {
    const found = saved.find((s) => s.weekdayEn === d.weekdayEn);
    return { weekday: d.weekday, weekdayEn: d.weekdayEn, startTime: found?.startTime ?? '', endTime: found?.endTime ?? '' };
  });

export function SchedulesForm({ companyId }: { companyId: number }) {
  const styles = useStyles();
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  const { data, setData } = useQuery(companySchedulesKey(companyId), () => settingsApi.schedules(companyId));
  const [week, setWeek] = useState<CompanySchedule[]>(() => fillWeek([]));
  const [error, setError] = useState<string | null>(null);
  const { saving, run } = useSaving();

  useEffect(() => {
    if (data) setWeek(fillWeek(data));
  }, [data]);

  const set = (index: number, field: 'startTime' | 'endTime', value: string) =>
    setWeek((w) => w.map((d, i) => (i === index ? { ...d, [field]: value } : d)));

  const save = async () => {
    const result = validate(updateCompanySchedulesSchema, { schedules: week }, tc);
    if (!result.ok) {
      setError(Object.values(result.errors)[0] ?? tc('validation.invalid'));
      return;
    }
    setError(null);
    await run(async () => {
      const saved = await settingsApi.saveSchedules(companyId, result.data);
      setData(Array.isArray(saved) ? saved : week);
      toast.success(t('toasts.schedulesUpdated'));
    });
  };

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 12 }} data-testid="schedules-form">
      <div className={styles.grid}>
        <Text weight="semibold">{t('schedules.weekday')}</Text>
        <Text weight="semibold">{t('schedules.start')}</Text>
        <Text weight="semibold">{t('schedules.end')}</Text>
        {week.map((d, i) => (
          <div key={d.weekdayEn} style={{ display: 'contents' }}>
            <Text>{t(`schedules.days.${d.weekdayEn as 'monday'}`)}</Text>
            <Field>
              <TimeInput aria-label={`${d.weekdayEn} start`} value={d.startTime} onChange={(v) => set(i, 'startTime', v)} />
            </Field>
            <Field>
              <TimeInput aria-label={`${d.weekdayEn} end`} value={d.endTime} onChange={(v) => set(i, 'endTime', v)} />
            </Field>
          </div>
        ))}
      </div>
      {error ? <Text style={{ color: tokens.colorPaletteRedForeground1 }}>{error}</Text> : null}
      <div>
        <Button appearance="primary" disabled={saving} icon={saving ? <Spinner size="tiny" /> : undefined} onClick={() => void save()}>
          {t('schedules.save')}
        </Button>
      </div>
    </div>
  );
}
