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
import { Add20Regular, Delete20Regular, Edit20Regular } from '@fluentui/react-icons';
import { PLAN_FEATURES, createPlanSchema, updatePlanSchema, type PlanFeature } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { queryClient, useQuery } from '../../../api/query';
import { ConfirmationDialog } from '../../../components/confirmation-dialog';
import { fieldRow } from '../../../components/form/field-row';
import { RowAction } from '../../../components/row-action';
import { ListBody } from '../../../components/list-body';
import { validate, type FieldErrors } from '../../../components/form/validation';
import { toast } from '../../../components/toasts';
import { useSaving } from '../../../hooks/use-saving';
import { PLANS_KEY, plansApi, type PlanRow } from '../api/plans';
import { removeRow } from '../../../hooks/remove-row';
import { SaveActions } from '../../../components/form/save-actions';

const BRL = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL', minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** A plan's value in BRL, pt-BR style with 2 decimals (spec 01 section 3), whatever the interface language. */
export const formatPlanValue = (value: number | string | null | undefined): string => {
  const n = typeof value === 'string' ? Number(value) : (value ?? 0);
  return BRL.format(Number.isFinite(n) ? n : 0);
};

/**
 * What the value field holds, as the API's number text: "1.234,56" and "1234,56" (pt-BR) or "1234.56";
 * anything else is passed on for the schema to refuse.
 */
export const parsePlanValue = (text: string): string => {
  const value = text.trim().replace(/^R\$\s*/, '');
  if (/^\d{1,3}(\.\d{3})+(,\d{1,2})?$/.test(value)) return value.replace(/\./g, '').replace(',', '.');
  if (/^\d+,\d{1,2}$/.test(value)) return value.replace(',', '.');
  return value;
};

/** The value as the form shows it to edit: pt-BR digits without the currency sign. */
const editableValue = (value: number) => value.toFixed(2).replace('.', ',');

const useStyles = makeStyles({
  toolbar: { display: 'flex', justifyContent: 'flex-end', marginBottom: tokens.spacingVerticalM },
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  row: fieldRow('140px'),
  flags: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(200px, 1fr))', gap: tokens.spacingVerticalXS },
});

/** Settings > Plans (super users): limits, value and feature flags. */
export function PlansTab() {
  const styles = useStyles();
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  const plans = useQuery(PLANS_KEY, plansApi.list);
  const [editing, setEditing] = useState<PlanRow | 'new' | null>(null);
  const [deleting, setDeleting] = useState<PlanRow | null>(null);
  const rows = Array.isArray(plans.data) ? plans.data : [];

  const remove = (plan: PlanRow) => removeRow(() => plansApi.remove(plan.id), PLANS_KEY, t('plansTab.toasts.deleted'));

  return (
    <div data-testid="plans-tab">
      <div className={styles.toolbar}>
        <Button appearance="primary" icon={<Add20Regular />} data-testid="plan-add" onClick={() => setEditing('new')}>
          {t('plansTab.add')}
        </Button>
      </div>
      <ListBody loading={plans.isLoading} empty={rows.length === 0} emptyTitle={t('plansTab.empty')}>
        <Table aria-label={t('tabs.plans')}>
          <TableHeader>
            <TableRow>
              <TableHeaderCell>{t('plansTab.columns.name')}</TableHeaderCell>
              <TableHeaderCell style={{ width: 100 }}>{t('plansTab.columns.users')}</TableHeaderCell>
              <TableHeaderCell style={{ width: 110 }}>{t('plansTab.columns.connections')}</TableHeaderCell>
              <TableHeaderCell style={{ width: 100 }}>{t('plansTab.columns.queues')}</TableHeaderCell>
              <TableHeaderCell style={{ width: 140 }}>{t('plansTab.columns.value')}</TableHeaderCell>
              <TableHeaderCell style={{ width: 100 }}>{t('plansTab.columns.actions')}</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((p) => (
              <TableRow key={p.id} data-testid={`plan-row-${p.id}`}>
                <TableCell>{p.name}</TableCell>
                <TableCell>{p.users}</TableCell>
                <TableCell>{p.connections}</TableCell>
                <TableCell>{p.queues}</TableCell>
                <TableCell data-testid={`plan-value-${p.id}`}>{formatPlanValue(p.value)}</TableCell>
                <TableCell>
                  <RowAction label={tc('actions.edit')} icon={<Edit20Regular />} onClick={() => setEditing(p)} />
                  <RowAction label={tc('actions.delete')} icon={<Delete20Regular />} testId={`plan-delete-${p.id}`} onClick={() => setDeleting(p)} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </ListBody>
      {editing ? (
        <PlanModal key={editing === 'new' ? 'new' : editing.id} plan={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />
      ) : null}
      <ConfirmationDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t('plansTab.confirmDelete.title', { name: deleting?.name ?? '' })}
        confirmLabel={tc('actions.delete')}
        destructive
        onConfirm={() => (deleting ? remove(deleting) : undefined)}
      >
        {t('plansTab.confirmDelete.body')}
      </ConfirmationDialog>
    </div>
  );
}

type Flags = Record<PlanFeature, boolean>;
/** New plans start with every feature enabled (spec 01 section 3). */
const allEnabled = (): Flags => Object.fromEntries(PLAN_FEATURES.map((f) => [f, true])) as Flags;

function PlanModal({ plan, onClose }: { plan?: PlanRow; onClose: () => void }) {
  const styles = useStyles();
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  const [name, setName] = useState(plan?.name ?? '');
  const [users, setUsers] = useState(String(plan?.users ?? 0));
  const [connections, setConnections] = useState(String(plan?.connections ?? 0));
  const [queues, setQueues] = useState(String(plan?.queues ?? 0));
  const [value, setValue] = useState(plan ? editableValue(plan.value) : '0,00');
  const [flags, setFlags] = useState<Flags>(() =>
    plan ? (Object.fromEntries(PLAN_FEATURES.map((f) => [f, plan[f] !== false])) as Flags) : allEnabled(),
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const { saving, run } = useSaving();

  const submit = async () => {
    const values = { name, users, connections, queues, value: parsePlanValue(value), ...flags };
    const result = plan ? validate(updatePlanSchema, values, tc) : validate(createPlanSchema, values, tc);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    await run(async () => {
      if (plan) await plansApi.update(plan.id, result.data);
      else await plansApi.create(result.data as Parameters<typeof plansApi.create>[0]);
      void queryClient.invalidateQueries({ queryKey: PLANS_KEY });
      toast.success(t('plansTab.toasts.saved'));
      onClose();
    });
  };

  const numberField = (field: 'users' | 'connections' | 'queues', current: string, set: (v: string) => void) => (
    <Field label={t(`plansTab.fields.${field}`)} validationMessage={errors[field]}>
      <Input type="number" min={0} value={current} data-testid={`plan-${field}`} onChange={(_, d) => set(d.value)} />
    </Field>
  );

  const parsed = Number(parsePlanValue(value));

  return (
    <Dialog open onOpenChange={(_, d) => !d.open && !saving && onClose()}>
      <DialogSurface data-testid="plan-modal">
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <DialogBody>
            <DialogTitle>{plan ? t('plansTab.modal.editTitle') : t('plansTab.modal.addTitle')}</DialogTitle>
            <DialogContent className={styles.content}>
              <Field label={t('plansTab.fields.name')} required validationMessage={errors.name}>
                <Input value={name} maxLength={100} autoFocus data-testid="plan-name" onChange={(_, d) => setName(d.value)} />
              </Field>
              <div className={styles.row}>
                {numberField('users', users, setUsers)}
                {numberField('connections', connections, setConnections)}
                {numberField('queues', queues, setQueues)}
                <Field
                  label={t('plansTab.fields.value')}
                  validationMessage={errors.value}
                  hint={Number.isFinite(parsed) ? formatPlanValue(parsed) : undefined}
                >
                  <Input value={value} inputMode="decimal" contentBefore="R$" data-testid="plan-value" onChange={(_, d) => setValue(d.value)} />
                </Field>
              </div>
              <div className={styles.flags}>
                {PLAN_FEATURES.map((f) => (
                  <Switch
                    key={f}
                    checked={flags[f]}
                    data-testid={`plan-flag-${f}`}
                    label={t(`plansTab.features.${f}`)}
                    onChange={(_, d) => setFlags((old) => ({ ...old, [f]: d.checked }))}
                  />
                ))}
              </div>
            </DialogContent>
            <SaveActions saving={saving} onCancel={onClose} saveTestId="plan-save" />
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
