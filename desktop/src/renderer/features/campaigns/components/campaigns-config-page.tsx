import { useEffect, useState } from 'react';
import { Button, Field, Input, Select, Spinner, Text, makeStyles, tokens } from '@fluentui/react-components';
import { Add20Regular, Delete20Regular } from '@fluentui/react-icons';
import {
  CAMPAIGN_VARIABLE_KEY,
  CAMPAIGN_VARIABLES_MAX,
  LONGER_INTERVAL_OPTIONS,
  MESSAGE_INTERVAL_OPTIONS,
  campaignSettingsFromRows,
  campaignSettingsValuesSchema,
  type CampaignSettings,
} from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { useQuery } from '../../../api/query';
import { useRealtimeEvent } from '../../../api/socket';
import { TimeInput } from '../../../components/form/date-time-inputs';
import { validate, type FieldErrors } from '../../../components/form/validation';
import { PageContainer, PageContent } from '../../../components/page-container';
import { PageHeader } from '../../../components/page-header';
import { toast } from '../../../components/toasts';
import { useSaving } from '../../../hooks/use-saving';
import { CAMPAIGN_SETTINGS_KEY, campaignsApi } from '../api/campaigns';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, maxWidth: '760px' },
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(200px, 1fr))', gap: tokens.spacingHorizontalM, alignItems: 'start' },
  hint: { color: tokens.colorNeutralForeground3 },
  window: { display: 'flex', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
  variable: { display: 'grid', gridTemplateColumns: 'minmax(90px, 1fr) minmax(120px, 2fr) auto', gap: tokens.spacingHorizontalS, alignItems: 'start' },
  actions: { display: 'flex', justifyContent: 'flex-end' },
});

/** The screen's choices (spec 02 section 9), plus the stored value when another client saved one outside them. */
const choicesWith = (options: readonly number[], current: number) => [...new Set([...options, current])].sort((a, b) => a - b);

type Variable = { key: string; value: string };

/** A variable's trouble: a key that is not letters, digits and _, or one already above it in the list. */
const variableErrors = (variables: Variable[], t: (key: string) => string): Record<number, string> => {
  const seen = new Set<string>();
  const out: Record<number, string> = {};
  variables.forEach((v, i) => {
    const key = v.key.trim().toLowerCase();
    if (!CAMPAIGN_VARIABLE_KEY.test(v.key.trim())) out[i] = t('config.invalidKey');
    else if (seen.has(key)) out[i] = t('config.duplicateKey');
    seen.add(key);
  });
  return out;
};

/**
 * /campaigns-config (spec 02 "Campaigns page"; spec 04 section 2): the company's pacing (messageInterval
 * seconds between sends, a longer pause of greaterInterval seconds after every longerIntervalAfter sends, 0
 * off), an optional send window and daily cap per connection, and the variables the messages may use.
 */
export default function CampaignsConfigPage() {
  const styles = useStyles();
  const { t } = useTranslation('campaigns');
  const rows = useQuery(CAMPAIGN_SETTINGS_KEY, campaignsApi.settings);
  const [values, setValues] = useState<CampaignSettings | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [varErrors, setVarErrors] = useState<Record<number, string>>({});
  const { saving, run } = useSaving();

  // The stored settings (or the defaults) once read; a save elsewhere reloads them.
  useEffect(() => {
    if (rows.data && !values) setValues(campaignSettingsFromRows(rows.data));
  }, [rows.data, values]);
  useRealtimeEvent('campaignSettings', () => {
    void rows.refetch().then((data) => data && setValues(campaignSettingsFromRows(data)));
  });

  if (!values) {
    return (
      <PageContainer>
        <PageHeader title={t('configTitle')} />
        <Spinner />
      </PageContainer>
    );
  }

  const set = <K extends keyof CampaignSettings>(key: K, value: CampaignSettings[K]) => {
    setValues({ ...values, [key]: value });
    setErrors(({ [key]: _dropped, ...rest }) => rest);
  };
  const setVariable = (index: number, patch: Partial<Variable>) => {
    set(
      'variables',
      values.variables.map((v, i) => (i === index ? { ...v, ...patch } : v)),
    );
    setVarErrors(({ [index]: _dropped, ...rest }) => rest);
  };

  const save = async () => {
    const variables = values.variables.map((v) => ({ key: v.key.trim(), value: v.value })).filter((v) => v.key || v.value);
    const wrongVariables = variableErrors(variables, t);
    const result = validate(campaignSettingsValuesSchema, { ...values, variables }, t);
    setVarErrors(wrongVariables);
    if (!result.ok || Object.keys(wrongVariables).length > 0) {
      setErrors(result.ok ? {} : result.errors);
      return;
    }
    await run(async () => {
      const saved = await campaignsApi.saveSettings({ settings: result.data });
      rows.setData(saved);
      setValues(campaignSettingsFromRows(saved));
      toast.success(t('toasts.settingsSaved'));
    });
  };

  const seconds = (n: number) => (n === 0 ? t('config.off') : t('config.seconds', { count: n }));
  return (
    <PageContainer>
      <PageHeader title={t('configTitle')} />
      <PageContent>
        <form
          className={styles.form}
          noValidate
          data-testid="campaigns-config"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <section className={styles.section}>
            <Text weight="semibold">{t('config.pacing')}</Text>
            <Text size={200} className={styles.hint}>
              {t('config.pacingHint')}
            </Text>
            <div className={styles.grid}>
              <Field label={t('config.messageInterval')} validationMessage={errors.messageInterval}>
                <Select
                  value={String(values.messageInterval)}
                  data-testid="campaigns-config-message-interval"
                  onChange={(_, d) => set('messageInterval', Number(d.value))}
                >
                  {choicesWith(MESSAGE_INTERVAL_OPTIONS, values.messageInterval).map((n) => (
                    <option key={n} value={n}>
                      {seconds(n)}
                    </option>
                  ))}
                </Select>
              </Field>
              <Field label={t('config.longerIntervalAfter')} validationMessage={errors.longerIntervalAfter}>
                <Select
                  value={String(values.longerIntervalAfter)}
                  data-testid="campaigns-config-longer-after"
                  onChange={(_, d) => set('longerIntervalAfter', Number(d.value))}
                >
                  {choicesWith(LONGER_INTERVAL_OPTIONS, values.longerIntervalAfter).map((n) => (
                    <option key={n} value={n}>
                      {n === 0 ? t('config.off') : t('config.messages', { count: n })}
                    </option>
                  ))}
                </Select>
              </Field>
              <Field label={t('config.greaterInterval')} validationMessage={errors.greaterInterval}>
                <Select
                  value={String(values.greaterInterval)}
                  disabled={values.longerIntervalAfter === 0}
                  data-testid="campaigns-config-greater-interval"
                  onChange={(_, d) => set('greaterInterval', Number(d.value))}
                >
                  {choicesWith(LONGER_INTERVAL_OPTIONS, values.greaterInterval).map((n) => (
                    <option key={n} value={n}>
                      {seconds(n)}
                    </option>
                  ))}
                </Select>
              </Field>
            </div>
          </section>
          <section className={styles.section}>
            <Text weight="semibold">{t('config.window')}</Text>
            <Text size={200} className={styles.hint}>
              {t('config.windowHint')}
            </Text>
            <div className={styles.window}>
              <Field label={t('config.windowStart')} validationMessage={errors.sendWindowStart}>
                <TimeInput value={values.sendWindowStart} data-testid="campaigns-config-window-start" onChange={(v) => set('sendWindowStart', v)} />
              </Field>
              <Field label={t('config.windowEnd')} validationMessage={errors.sendWindowEnd}>
                <TimeInput value={values.sendWindowEnd} data-testid="campaigns-config-window-end" onChange={(v) => set('sendWindowEnd', v)} />
              </Field>
            </div>
            <Field label={t('config.dailyLimit')} validationMessage={errors.dailyLimit}>
              <Input
                type="number"
                min={0}
                value={String(values.dailyLimit)}
                data-testid="campaigns-config-daily-limit"
                onChange={(_, d) => set('dailyLimit', d.value === '' ? 0 : Number(d.value))}
              />
            </Field>
          </section>
          <section className={styles.section}>
            <Text weight="semibold">{t('config.variables')}</Text>
            <Text size={200} className={styles.hint}>
              {t('config.variablesHint')}
            </Text>
            {values.variables.map((v, i) => (
              <div key={i} className={styles.variable} data-testid={`campaigns-config-variable-${i}`}>
                <Field validationMessage={varErrors[i]}>
                  <Input
                    aria-label={t('config.key')}
                    placeholder={t('config.key')}
                    maxLength={40}
                    value={v.key}
                    data-testid={`campaigns-config-variable-key-${i}`}
                    onChange={(_, d) => setVariable(i, { key: d.value })}
                  />
                </Field>
                <Input
                  aria-label={t('config.value')}
                  placeholder={t('config.value')}
                  maxLength={1000}
                  value={v.value}
                  data-testid={`campaigns-config-variable-value-${i}`}
                  onChange={(_, d) => setVariable(i, { value: d.value })}
                />
                <Button
                  appearance="subtle"
                  icon={<Delete20Regular />}
                  aria-label={t('config.removeVariable', { key: v.key })}
                  data-testid={`campaigns-config-variable-remove-${i}`}
                  onClick={() => {
                    set(
                      'variables',
                      values.variables.filter((_, j) => j !== i),
                    );
                    setVarErrors({});
                  }}
                />
              </div>
            ))}
            {errors.variables ? <Text className={styles.hint}>{errors.variables}</Text> : null}
            <div>
              <Button
                icon={<Add20Regular />}
                disabled={values.variables.length >= CAMPAIGN_VARIABLES_MAX}
                data-testid="campaigns-config-variable-add"
                onClick={() => set('variables', [...values.variables, { key: '', value: '' }])}
              >
                {t('config.addVariable')}
              </Button>
            </div>
          </section>
          <div className={styles.actions}>
            <Button appearance="primary" type="submit" disabled={saving} icon={saving ? <Spinner size="tiny" /> : undefined} data-testid="campaigns-config-save">
              {t('config.save')}
            </Button>
          </div>
        </form>
      </PageContent>
    </PageContainer>
  );
}
