import { useState } from 'react';
import {
  Button,
  Dialog,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  Select,
  Spinner,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { Add20Regular, CalendarArrowRight20Regular, Delete20Regular, Edit20Regular } from '@fluentui/react-icons';
import { RECURRENCE_MONTHS, createCompanySchema, updateCompanySchema, type Recurrence } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { toastError } from '../../../api/errors';
import { queryClient, useQuery } from '../../../api/query';
import { ConfirmationDialog } from '../../../components/confirmation-dialog';
import { RowAction } from '../../../components/row-action';
import { ListBody } from '../../../components/list-body';
import { validate, type FieldErrors } from '../../../components/form/validation';
import { toast } from '../../../components/toasts';
import { useSaving } from '../../../hooks/use-saving';
import { formatDate } from '../../../i18n/format';
import { COMPANIES_KEY, companiesApi, type CompanyRow } from '../api/companies';
import { PLANS_KEY, plansApi } from '../api/plans';
import { removeRow } from '../../../hooks/remove-row';
import { SaveActions } from '../../../components/form/save-actions';

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
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  row: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(180px, 1fr))', gap: tokens.spacingHorizontalM, alignItems: 'end' },
});

/** Settings > Companies (super users): every company, coloured by its due date; create, edit, expire, delete. */
export function CompaniesTab() {
  const styles = useStyles();
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  const companies = useQuery(COMPANIES_KEY, companiesApi.list);
  const plans = useQuery(PLANS_KEY, plansApi.list);
  const [editing, setEditing] = useState<CompanyRow | 'new' | null>(null);
  const [deleting, setDeleting] = useState<CompanyRow | null>(null);
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

  const remove = (company: CompanyRow) => removeRow(() => companiesApi.remove(company.id), COMPANIES_KEY, t('companiesTab.toasts.deleted'));

  return (
    <div data-testid="companies-tab">
      <div className={styles.toolbar}>
        <Button appearance="primary" icon={<Add20Regular />} data-testid="company-add" onClick={() => setEditing('new')}>
          {t('companiesTab.add')}
        </Button>
      </div>
      <ListBody loading={companies.isLoading} empty={rows.length === 0} emptyTitle={t('companiesTab.empty')}>
        <Table aria-label={t('tabs.companies')}>
          <TableHeader>
            <TableRow>
              <TableHeaderCell>{t('companiesTab.columns.name')}</TableHeaderCell>
              <TableHeaderCell>{t('companiesTab.columns.email')}</TableHeaderCell>
              <TableHeaderCell>{t('companiesTab.columns.plan')}</TableHeaderCell>
              <TableHeaderCell style={{ width: 90 }}>{t('companiesTab.columns.status')}</TableHeaderCell>
              <TableHeaderCell style={{ width: 120 }}>{t('companiesTab.columns.recurrence')}</TableHeaderCell>
              <TableHeaderCell style={{ width: 120 }}>{t('companiesTab.columns.dueDate')}</TableHeaderCell>
              <TableHeaderCell style={{ width: 130 }}>{t('companiesTab.columns.actions')}</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((c) => {
              const tone = dueTone(daysToDue(c.dueDate));
              return (
                <TableRow
                  key={c.id}
                  data-testid={`company-row-${c.id}`}
                  data-tone={tone}
                  className={tone === 'none' ? undefined : styles[tone]}
                >
                  <TableCell>{c.name}</TableCell>
                  <TableCell>{c.email ?? ''}</TableCell>
                  <TableCell>{planName(c.planId)}</TableCell>
                  <TableCell>{c.status ? tc('actions.yes') : tc('actions.no')}</TableCell>
                  <TableCell>{t(`companiesTab.recurrences.${c.recurrence as 'MENSAL'}`, { defaultValue: c.recurrence })}</TableCell>
                  <TableCell>{formatDate(c.dueDate)}</TableCell>
                  <TableCell>
                    <RowAction label={tc('actions.edit')} icon={<Edit20Regular />} onClick={() => setEditing(c)} />
                    <RowAction
                      label={t('companiesTab.expire')}
                      icon={expiring === c.id ? <Spinner size="tiny" /> : <CalendarArrowRight20Regular />}
                      testId={`company-expire-${c.id}`}
                      disabled={expiring === c.id}
                      onClick={() => void expire(c)}
                    />
                    <RowAction label={tc('actions.delete')} icon={<Delete20Regular />} testId={`company-delete-${c.id}`} onClick={() => setDeleting(c)} />
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </ListBody>
      {editing ? (
        <CompanyModal
          key={editing === 'new' ? 'new' : editing.id}
          company={editing === 'new' ? undefined : editing}
          plans={plans.data ?? []}
          onClose={() => setEditing(null)}
        />
      ) : null}
      <ConfirmationDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t('companiesTab.confirmDelete.title', { name: deleting?.name ?? '' })}
        confirmLabel={tc('actions.delete')}
        destructive
        onConfirm={() => (deleting ? remove(deleting) : undefined)}
      >
        {t('companiesTab.confirmDelete.body')}
      </ConfirmationDialog>
    </div>
  );
}

/** Create or edit a company: name, email, phone, plan, status, due date, recurrence (MENSAL only, spec 01 section 2). */
function CompanyModal({ company, plans, onClose }: { company?: CompanyRow; plans: { id: number; name: string }[]; onClose: () => void }) {
  const styles = useStyles();
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  const [name, setName] = useState(company?.name ?? '');
  const [email, setEmail] = useState(company?.email ?? '');
  const [phone, setPhone] = useState(company?.phone ?? '');
  const [password, setPassword] = useState('');
  const [planId, setPlanId] = useState(company ? String(company.planId) : '');
  const [status, setStatus] = useState(company?.status ?? true);
  const [campaignsEnabled, setCampaignsEnabled] = useState(true);
  const [dueDate, setDueDate] = useState(company?.dueDate?.slice(0, 10) ?? '');
  const [recurrence, setRecurrence] = useState(company?.recurrence ?? 'MENSAL');
  // New companies are MENSAL; one set otherwise through the API keeps its recurrence unless changed here.
  const recurrences = [...new Set(['MENSAL', company?.recurrence ?? 'MENSAL'])];
  const [errors, setErrors] = useState<FieldErrors>({});
  const { saving, run } = useSaving();

  const submit = async () => {
    const values: Record<string, unknown> = {
      name,
      email,
      phone,
      planId: planId ? Number(planId) : undefined,
      status,
      dueDate: dueDate || undefined,
      recurrence,
    };
    if (!company) Object.assign(values, { password: password || undefined, campaignsEnabled });
    const result = company ? validate(updateCompanySchema, values, tc) : validate(createCompanySchema, values, tc);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    // The date goes as typed (yyyy-MM-dd), not as the schema's Date at UTC midnight.
    const payload = { ...result.data, dueDate: dueDate || undefined };
    await run(async () => {
      if (company) await companiesApi.update(company.id, payload);
      else await companiesApi.create(payload as Parameters<typeof companiesApi.create>[0]);
      void queryClient.invalidateQueries({ queryKey: COMPANIES_KEY });
      toast.success(t('companiesTab.toasts.saved'));
      onClose();
    });
  };

  return (
    <Dialog open onOpenChange={(_, d) => !d.open && !saving && onClose()}>
      <DialogSurface data-testid="company-modal">
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <DialogBody>
            <DialogTitle>{company ? t('companiesTab.modal.editTitle') : t('companiesTab.modal.addTitle')}</DialogTitle>
            <DialogContent className={styles.content}>
              <div className={styles.row}>
                <Field label={t('companiesTab.fields.name')} required validationMessage={errors.name}>
                  <Input value={name} maxLength={50} autoFocus data-testid="company-name" onChange={(_, d) => setName(d.value)} />
                </Field>
                <Field label={t('companiesTab.fields.email')} validationMessage={errors.email}>
                  <Input type="email" value={email} data-testid="company-email" onChange={(_, d) => setEmail(d.value)} />
                </Field>
              </div>
              <div className={styles.row}>
                <Field label={t('companiesTab.fields.phone')} validationMessage={errors.phone}>
                  <Input value={phone} maxLength={20} data-testid="company-phone" onChange={(_, d) => setPhone(d.value)} />
                </Field>
                {company ? null : (
                  <Field label={t('companiesTab.fields.password')} hint={t('companiesTab.fields.passwordHint')} validationMessage={errors.password}>
                    <Input type="password" value={password} maxLength={50} data-testid="company-password" onChange={(_, d) => setPassword(d.value)} />
                  </Field>
                )}
              </div>
              <div className={styles.row}>
                <Field label={t('companiesTab.fields.plan')} required validationMessage={errors.planId}>
                  <Select value={planId} data-testid="company-plan" onChange={(_, d) => setPlanId(d.value)}>
                    <option value="">{t('companiesTab.fields.choosePlan')}</option>
                    {plans.map((p) => (
                      <option key={p.id} value={String(p.id)}>
                        {p.name}
                      </option>
                    ))}
                  </Select>
                </Field>
                <Field label={t('companiesTab.fields.recurrence')} validationMessage={errors.recurrence}>
                  <Select value={recurrence} data-testid="company-recurrence" onChange={(_, d) => setRecurrence(d.value)}>
                    {recurrences.map((r) => (
                      <option key={r} value={r}>
                        {t(`companiesTab.recurrences.${r as 'MENSAL'}`, { defaultValue: r })}
                      </option>
                    ))}
                  </Select>
                </Field>
              </div>
              <div className={styles.row}>
                <Field label={t('companiesTab.fields.dueDate')} validationMessage={errors.dueDate}>
                  <Input type="date" value={dueDate} data-testid="company-due-date" onChange={(_, d) => setDueDate(d.value)} />
                </Field>
                <Switch
                  checked={status}
                  data-testid="company-status"
                  label={status ? t('companiesTab.fields.active') : t('companiesTab.fields.inactive')}
                  onChange={(_, d) => setStatus(d.checked)}
                />
                {company ? null : (
                  <Switch
                    checked={campaignsEnabled}
                    data-testid="company-campaigns"
                    label={t('companiesTab.fields.campaigns')}
                    onChange={(_, d) => setCampaignsEnabled(d.checked)}
                  />
                )}
              </div>
            </DialogContent>
            <SaveActions saving={saving} onCancel={onClose} saveTestId="company-save" />
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
