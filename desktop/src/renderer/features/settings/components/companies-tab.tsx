import { useState } from 'react';
import { Button, Field, Input, Select, Spinner, Switch, makeStyles, tokens } from '@fluentui/react-components';
import { Add20Regular, CalendarArrowRight20Regular } from '@fluentui/react-icons';
import { RECURRENCE_MONTHS, createCompanySchema, updateCompanySchema, type Recurrence, type UpdateCompanyInput } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { toastError } from '../../../api/errors';
import { queryClient, useQuery } from '../../../api/query';
import { ListBody } from '../../../components/list-body';
import { DataTable, DeleteDialog, EditDeleteActions, FormDialog, useListDialogs, type Column } from '../../../components/list-kit';
import { RowAction } from '../../../components/row-action';
import { toast } from '../../../components/toasts';
import { formatDate } from '../../../i18n/format';
import { COMPANIES_KEY, companiesApi, type CompanyRow } from '../api/companies';
import { PLANS_KEY, plansApi } from '../api/plans';

const DAY_MS = 86_400_000;
const pad = (n: number) => String(n).padStart(2, '0');
const localDay = (date: Date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
const dayParts = (day: string) => day.slice(0, 10).split('-').map(Number) as [number, number, number];
const isDay = (value: string | null | undefined): value is string => !!value && /^\d{4}-\d{2}-\d{2}/.test(value);

/** Calendar days from today (this computer's date) to the due date: 0 due today, negative overdue. */
export const daysToDue = (dueDate: string | null | undefined, today = new Date()): number | null => {
  if (!isDay(dueDate)) return null;
  const [y, m, d] = dayParts(dueDate);
  return Math.round((Date.UTC(y, m - 1, d) - Date.UTC(today.getFullYear(), today.getMonth(), today.getDate())) / DAY_MS);
};

export type DueTone = 'none' | 'paleYellow' | 'orange' | 'red';

/**
 * The row colour (spec 01 section 2: "5 days pale yellow; -3 to 4 orange; -4 red"), read as: exactly 5
 * days left pale yellow; from 4 days left to 3 days overdue orange; 4 or more days overdue red (the
 * family colours only day -4, leaving longer-expired companies plain); more than 5 days left, none.
 */
export const dueTone = (days: number | null): DueTone => {
  if (days === null || days > 5) return 'none';
  if (days === 5) return 'paleYellow';
  if (days >= -3) return 'orange';
  return 'red';
};

/**
 * The Expire button's new due date: the current one (today when there is none) moved forward by the
 * recurrence's months, kept within the target month (31 January + 1 month = the last day of February).
 */
export const expireDueDate = (dueDate: string | null | undefined, recurrence: string, today = new Date()): string => {
  const months = RECURRENCE_MONTHS[recurrence as Recurrence] ?? 1;
  const [y, m, d] = dayParts(isDay(dueDate) ? dueDate : localDay(today));
  const monthIndex = m - 1 + months;
  const year = y + Math.floor(monthIndex / 12);
  const month = monthIndex % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return `${year}-${pad(month + 1)}-${pad(Math.min(d, lastDay))}`;
};

const useStyles = makeStyles({
  toolbar: { display: 'flex', justifyContent: 'flex-end', marginBottom: tokens.spacingVerticalM },
  paleYellow: { backgroundColor: tokens.colorPaletteYellowBackground1 },
  orange: { backgroundColor: tokens.colorPaletteDarkOrangeBackground2 },
  red: { backgroundColor: tokens.colorPaletteRedBackground2 },
  actions: { display: 'flex' },
  row: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(180px, 1fr))', gap: tokens.spacingHorizontalM, alignItems: 'end' },
});

/** Settings > Companies (super users): every company, coloured by its due date; create, edit, expire, delete. */
export function CompaniesTab() {
  const styles = useStyles();
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  const companies = useQuery(COMPANIES_KEY, companiesApi.list);
  const plans = useQuery(PLANS_KEY, plansApi.list);
  const dialogs = useListDialogs<CompanyRow>();
  const [expiring, setExpiring] = useState<number | null>(null);

  const rows = Array.isArray(companies.data) ? companies.data : [];
  const planName = (id: number) => plans.data?.find((p) => p.id === id)?.name ?? '';

  const expire = async (company: CompanyRow) => {
    setExpiring(company.id);
    try {
      const dueDate = expireDueDate(company.dueDate, company.recurrence);
      await companiesApi.update(company.id, { dueDate });
      void queryClient.invalidateQueries({ queryKey: COMPANIES_KEY });
      toast.success(t('companiesTab.toasts.expired', { date: formatDate(dueDate) }));
    } catch (err) {
      toastError(err);
    } finally {
      setExpiring(null);
    }
  };

  const columns: Column<CompanyRow>[] = [
    { id: 'name', header: t('companiesTab.columns.name'), cell: (c) => c.name },
    { id: 'email', header: t('companiesTab.columns.email'), secondary: true, cell: (c) => c.email ?? '' },
    { id: 'plan', header: t('companiesTab.columns.plan'), secondary: true, cell: (c) => planName(c.planId) },
    { id: 'status', header: t('companiesTab.columns.status'), width: 90, secondary: true, cell: (c) => (c.status ? tc('actions.yes') : tc('actions.no')) },
    {
      id: 'recurrence',
      header: t('companiesTab.columns.recurrence'),
      width: 120,
      secondary: true,
      cell: (c) => t(`companiesTab.recurrences.${c.recurrence as 'MENSAL'}`, { defaultValue: c.recurrence }),
    },
    { id: 'dueDate', header: t('companiesTab.columns.dueDate'), width: 120, cell: (c) => formatDate(c.dueDate) },
  ];

  return (
    <div data-testid="companies-tab">
      <div className={styles.toolbar}>
        <Button appearance="primary" icon={<Add20Regular />} data-testid="company-add" onClick={dialogs.openAdd}>
          {t('companiesTab.add')}
        </Button>
      </div>
      <ListBody loading={companies.isLoading} empty={rows.length === 0} emptyTitle={t('companiesTab.empty')}>
        <DataTable
          label={t('tabs.companies')}
          rows={rows}
          columns={columns}
          rowKey={(c) => c.id}
          rowTestId={(c) => `company-row-${c.id}`}
          rowProps={(c) => {
            const tone = dueTone(daysToDue(c.dueDate));
            return { 'data-tone': tone, className: tone === 'none' ? undefined : styles[tone] };
          }}
          actionsHeader={t('companiesTab.columns.actions')}
          actionsWidth={130}
          actions={(c) => (
            <div className={styles.actions}>
              <EditDeleteActions testIdPrefix="company" id={c.id} onEdit={() => dialogs.openEdit(c)} />
              <RowAction
                label={t('companiesTab.expire')}
                icon={expiring === c.id ? <Spinner size="tiny" /> : <CalendarArrowRight20Regular />}
                testId={`company-expire-${c.id}`}
                disabled={expiring === c.id}
                onClick={() => void expire(c)}
              />
              <EditDeleteActions testIdPrefix="company" id={c.id} onDelete={() => dialogs.askDelete(c)} />
            </div>
          )}
        />
      </ListBody>
      {dialogs.editing ? (
        <CompanyModal key={dialogs.edited?.id ?? 'new'} company={dialogs.edited} plans={plans.data ?? []} onClose={dialogs.closeForm} />
      ) : null}
      <DeleteDialog
        item={dialogs.deleting}
        onClose={dialogs.closeDelete}
        title={(c) => t('companiesTab.confirmDelete.title', { name: c.name })}
        body={t('companiesTab.confirmDelete.body')}
        remove={(c) => companiesApi.remove(c.id)}
        listKey={COMPANIES_KEY}
        deletedMessage={t('companiesTab.toasts.deleted')}
      />
    </div>
  );
}

type CompanyValues = {
  name: string;
  email: string;
  phone: string;
  password: string;
  planId: string;
  status: boolean;
  campaignsEnabled: boolean;
  dueDate: string;
  recurrence: string;
};

/** Create or edit a company: name, email, phone, plan, status, due date, recurrence (MENSAL only, spec 01 section 2). */
function CompanyModal({ company, plans, onClose }: { company?: CompanyRow; plans: { id: number; name: string }[]; onClose: () => void }) {
  const styles = useStyles();
  const { t } = useTranslation('settings');
  // New companies are MENSAL; one set otherwise through the API keeps its recurrence unless changed here.
  const recurrences = [...new Set(['MENSAL', company?.recurrence ?? 'MENSAL'])];
  const initialValues: CompanyValues = {
    name: company?.name ?? '',
    email: company?.email ?? '',
    phone: company?.phone ?? '',
    password: '',
    planId: company ? String(company.planId) : '',
    status: company?.status ?? true,
    campaignsEnabled: true,
    dueDate: company?.dueDate?.slice(0, 10) ?? '',
    recurrence: company?.recurrence ?? 'MENSAL',
  };
  const toPayload = (v: CompanyValues) => {
    const values: Record<string, unknown> = {
      name: v.name,
      email: v.email,
      phone: v.phone,
      planId: v.planId ? Number(v.planId) : undefined,
      status: v.status,
      dueDate: v.dueDate || undefined,
      recurrence: v.recurrence,
    };
    if (!company) Object.assign(values, { password: v.password || undefined, campaignsEnabled: v.campaignsEnabled });
    return values;
  };

  return (
    <FormDialog<CompanyValues, UpdateCompanyInput>
      title={company ? t('companiesTab.modal.editTitle') : t('companiesTab.modal.addTitle')}
      schema={company ? updateCompanySchema : createCompanySchema}
      initialValues={initialValues}
      toPayload={toPayload}
      testId="company-modal"
      saveTestId="company-save"
      width={600}
      onClose={onClose}
      onSubmit={async (data, values) => {
        // The date goes as typed (yyyy-MM-dd), not as the schema's Date at UTC midnight.
        const payload = { ...data, dueDate: values.dueDate || undefined };
        if (company) await companiesApi.update(company.id, payload);
        else await companiesApi.create(payload as Parameters<typeof companiesApi.create>[0]);
        void queryClient.invalidateQueries({ queryKey: COMPANIES_KEY });
        toast.success(t('companiesTab.toasts.saved'));
      }}
    >
      {(form) => (
        <>
          <div className={styles.row}>
            <Field label={t('companiesTab.fields.name')} required {...form.field('name')}>
              <Input maxLength={50} autoFocus data-testid="company-name" {...form.text('name')} />
            </Field>
            <Field label={t('companiesTab.fields.email')} {...form.field('email')}>
              <Input type="email" data-testid="company-email" {...form.text('email')} />
            </Field>
          </div>
          <div className={styles.row}>
            <Field label={t('companiesTab.fields.phone')} {...form.field('phone')}>
              <Input maxLength={20} data-testid="company-phone" {...form.text('phone')} />
            </Field>
            {company ? null : (
              <Field label={t('companiesTab.fields.password')} hint={`${t('companiesTab.fields.passwordHint')} ${t('validation.passwordRule', { ns: 'common' })}`} {...form.field('password')}>
                <Input type="password" maxLength={50} data-testid="company-password" {...form.text('password')} />
              </Field>
            )}
          </div>
          <div className={styles.row}>
            <Field label={t('companiesTab.fields.plan')} required {...form.field('planId')}>
              <Select value={form.values.planId} data-testid="company-plan" onChange={(_, d) => form.set('planId', d.value)}>
                <option value="">{t('companiesTab.fields.choosePlan')}</option>
                {plans.map((p) => (
                  <option key={p.id} value={String(p.id)}>
                    {p.name}
                  </option>
                ))}
              </Select>
            </Field>
            <Field label={t('companiesTab.fields.recurrence')} {...form.field('recurrence')}>
              <Select value={form.values.recurrence} data-testid="company-recurrence" onChange={(_, d) => form.set('recurrence', d.value)}>
                {recurrences.map((r) => (
                  <option key={r} value={r}>
                    {t(`companiesTab.recurrences.${r as 'MENSAL'}`, { defaultValue: r })}
                  </option>
                ))}
              </Select>
            </Field>
          </div>
          <div className={styles.row}>
            <Field label={t('companiesTab.fields.dueDate')} {...form.field('dueDate')}>
              <Input type="date" data-testid="company-due-date" {...form.text('dueDate')} />
            </Field>
            <Switch
              data-testid="company-status"
              label={form.values.status ? t('companiesTab.fields.active') : t('companiesTab.fields.inactive')}
              {...form.check('status')}
            />
            {company ? null : <Switch data-testid="company-campaigns" label={t('companiesTab.fields.campaigns')} {...form.check('campaignsEnabled')} />}
          </div>
        </>
      )}
    </FormDialog>
  );
}
