import { useEffect, useState } from 'react';
import { Button, Field, Input, Select, Spinner, Tab, TabList, Text, makeStyles, tokens } from '@fluentui/react-components';
import { SETTINGS, SETTING_KEYS, type SettingKey } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { usePlanFlags } from '../../../api/company';
import { toastError } from '../../../api/errors';
import { useQuery } from '../../../api/query';
import { useRealtimeEvent } from '../../../api/socket';
import { EmptyState } from '../../../components/empty-state';
import { PageContainer, PageContent } from '../../../components/page-container';
import { PageHeader } from '../../../components/page-header';
import { toast } from '../../../components/toasts';
import { useCurrentUser } from '../../../stores/auth-store';
import { SETTINGS_KEY, SETTINGS_PROMPTS_KEY, settingsApi, type SettingRow } from '../api/settings';
import { CompaniesTab } from './companies-tab';
import { HelpsTab } from './helps-tab';
import { PlansTab } from './plans-tab';
import { SchedulesForm } from './schedules-form';

const useStyles = makeStyles({
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(280px, 1fr))', gap: tokens.spacingHorizontalL },
  body: { paddingTop: tokens.spacingVerticalL },
  token: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'end', maxWidth: '560px', marginTop: tokens.spacingVerticalL },
});

type TabId = 'options' | 'schedules' | 'companies' | 'plans' | 'helps';

const valueOf = (settings: readonly SettingRow[] | undefined, key: SettingKey): string =>
  settings?.find((s) => s.key === key)?.value ?? SETTINGS[key].default;

/** Whether the Schedules tab shows (spec 01 section 2: scheduleType equals company). */
export const showsSchedules = (settings: readonly SettingRow[] | undefined): boolean => valueOf(settings, 'scheduleType') === 'company';

/** /settings. */
export default function SettingsPage() {
  const styles = useStyles();
  const { t } = useTranslation('settings');
  const user = useCurrentUser();
  const { data, isLoading, setData } = useQuery(SETTINGS_KEY, settingsApi.list);
  const [tab, setTab] = useState<TabId>('options');
  const [saving, setSaving] = useState<string | null>(null);
  const [token, setToken] = useState('');
  const isAdmin = user?.profile === 'admin' || !!user?.super;
  // The prompt behind the agents' "Suggest a reply" and "Summarise" where the ticket's queue has none.
  const plan = usePlanFlags();
  const prompts = useQuery(SETTINGS_PROMPTS_KEY, settingsApi.prompts, { silent: true, enabled: isAdmin && !!plan?.useOpenAi });

  useRealtimeEvent<{ action: string; setting?: SettingRow }>('settings', (event) => {
    const changed = event.setting;
    if (!changed) return;
    setData((old) =>
      old?.some((s) => s.key === changed.key) ? old.map((s) => (s.key === changed.key ? { ...s, ...changed } : s)) : [...(old ?? []), changed],
    );
  });

  useEffect(() => {
    if (data) setToken(valueOf(data, 'asaas'));
  }, [data]);

  const schedulesVisible = showsSchedules(data);
  useEffect(() => {
    if (tab === 'schedules' && !schedulesVisible) setTab('options');
  }, [tab, schedulesVisible]);

  const save = async (key: SettingKey, value: string) => {
    setSaving(key);
    try {
      await settingsApi.update(key, value);
      setData((old) => (old?.some((s) => s.key === key) ? old.map((s) => (s.key === key ? { ...s, value } : s)) : [...(old ?? []), { key, value }]));
      toast.success(t('toasts.updated'));
    } catch (err) {
      toastError(err);
    } finally {
      setSaving(null);
    }
  };

  // The AI summary on transfer matters only to a plan with AI.
  const selectKeys = SETTING_KEYS.filter((k) => SETTINGS[k].values !== null && (k !== 'aiSummaryOnTransfer' || !!plan?.useOpenAi));

  return (
    <PageContainer>
      <PageHeader title={t('title')} />
      <TabList selectedValue={tab} onTabSelect={(_, d) => setTab(d.value as TabId)}>
        <Tab value="options" data-testid="settings-tab-options">{t('tabs.options')}</Tab>
        {schedulesVisible ? <Tab value="schedules" data-testid="settings-tab-schedules">{t('tabs.schedules')}</Tab> : null}
        {user?.super ? (
          <>
            <Tab value="companies" data-testid="settings-tab-companies">{t('tabs.companies')}</Tab>
            <Tab value="plans" data-testid="settings-tab-plans">{t('tabs.plans')}</Tab>
            <Tab value="helps" data-testid="settings-tab-helps">{t('tabs.helps')}</Tab>
          </>
        ) : null}
      </TabList>
      <PageContent>
        {isLoading ? (
          <Spinner />
        ) : tab === 'options' ? (
          <div className={styles.body}>
            <div className={styles.grid}>
              {selectKeys.map((key) => (
                <Field key={key} label={t(`options.${key}`)}>
                  <Select
                    value={valueOf(data, key)}
                    disabled={saving === key}
                    data-testid={`setting-${key}`}
                    onChange={(_, d) => void save(key, d.value)}
                  >
                    {(SETTINGS[key].values as readonly string[]).map((v) => (
                      <option key={v} value={v}>
                        {t(`values.${v as 'enabled'}`, { defaultValue: v })}
                      </option>
                    ))}
                  </Select>
                </Field>
              ))}
              {prompts.status === 'success' ? (
                <Field label={t('options.aiAssistPromptId')}>
                  <Select
                    value={valueOf(data, 'aiAssistPromptId')}
                    disabled={saving === 'aiAssistPromptId'}
                    data-testid="setting-aiAssistPromptId"
                    onChange={(_, d) => void save('aiAssistPromptId', d.value)}
                  >
                    <option value="">{t('values.none')}</option>
                    {(prompts.data ?? []).map((p) => (
                      <option key={p.id} value={String(p.id)}>
                        {p.name}
                      </option>
                    ))}
                  </Select>
                </Field>
              ) : null}
            </div>
            {isAdmin ? (
              <div className={styles.token}>
                <Field label={t('options.asaas')} style={{ flex: 1 }}>
                  <Input type="password" value={token} data-testid="setting-asaas" onChange={(_, d) => setToken(d.value)} />
                </Field>
                <Button disabled={saving === 'asaas'} onClick={() => void save('asaas', token)}>
                  {t('options.saveToken')}
                </Button>
              </div>
            ) : null}
          </div>
        ) : tab === 'schedules' && user ? (
          <div className={styles.body}>
            <SchedulesForm companyId={user.companyId} />
          </div>
        ) : user?.super && tab === 'companies' ? (
          <div className={styles.body}>
            <CompaniesTab />
          </div>
        ) : user?.super && tab === 'plans' ? (
          <div className={styles.body}>
            <PlansTab />
          </div>
        ) : user?.super && tab === 'helps' ? (
          <div className={styles.body}>
            <HelpsTab />
          </div>
        ) : (
          <EmptyState title={t(`tabs.${tab}`)} description={<Text>{t('placeholder')}</Text>} />
        )}
      </PageContent>
    </PageContainer>
  );
}
