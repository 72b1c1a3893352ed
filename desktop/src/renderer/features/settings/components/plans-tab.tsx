import { Button, Field, Input, Switch, makeStyles, tokens } from '@fluentui/react-components';
import { Add20Regular } from '@fluentui/react-icons';
import { PLAN_FEATURES, createPlanSchema, updatePlanSchema, type PlanFeature, type UpdatePlanInput } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { queryClient, useQuery } from '../../../api/query';
import { fieldRow } from '../../../components/form/field-row';
import { ListBody } from '../../../components/list-body';
import { DataTable, DeleteDialog, EditDeleteActions, FormDialog, useListDialogs, type Column } from '../../../components/list-kit';
import { toast } from '../../../components/toasts';
import { PLANS_KEY, plansApi, type PlanRow } from '../api/plans';

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
  row: fieldRow('140px'),
  flags: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(200px, 1fr))', gap: tokens.spacingVerticalXS },
});

/** Settings > Plans (super users): limits, value and feature flags. */
export function PlansTab() {
  const styles = useStyles();
  const { t } = useTranslation('settings');
  const plans = useQuery(PLANS_KEY, plansApi.list);
  const dialogs = useListDialogs<PlanRow>();
  const rows = Array.isArray(plans.data) ? plans.data : [];

  const columns: Column<PlanRow>[] = [
    { id: 'name', header: t('plansTab.columns.name'), cell: (p) => p.name },
    { id: 'users', header: t('plansTab.columns.users'), width: 100, secondary: true, cell: (p) => p.users },
    { id: 'connections', header: t('plansTab.columns.connections'), width: 110, secondary: true, cell: (p) => p.connections },
    { id: 'queues', header: t('plansTab.columns.queues'), width: 100, secondary: true, cell: (p) => p.queues },
    { id: 'value', header: t('plansTab.columns.value'), width: 140, cellTestId: (p) => `plan-value-${p.id}`, cell: (p) => formatPlanValue(p.value) },
  ];

  return (
    <div data-testid="plans-tab">
      <div className={styles.toolbar}>
        <Button appearance="primary" icon={<Add20Regular />} data-testid="plan-add" onClick={dialogs.openAdd}>
          {t('plansTab.add')}
        </Button>
      </div>
      <ListBody loading={plans.isLoading} empty={rows.length === 0} emptyTitle={t('plansTab.empty')}>
        <DataTable
          label={t('tabs.plans')}
          rows={rows}
          columns={columns}
          rowKey={(p) => p.id}
          rowTestId={(p) => `plan-row-${p.id}`}
          actionsHeader={t('plansTab.columns.actions')}
          actions={(p) => <EditDeleteActions testIdPrefix="plan" id={p.id} onEdit={() => dialogs.openEdit(p)} onDelete={() => dialogs.askDelete(p)} />}
        />
      </ListBody>
      {dialogs.editing ? <PlanModal key={dialogs.edited?.id ?? 'new'} plan={dialogs.edited} onClose={dialogs.closeForm} /> : null}
      <DeleteDialog
        item={dialogs.deleting}
        onClose={dialogs.closeDelete}
        title={(p) => t('plansTab.confirmDelete.title', { name: p.name })}
        body={t('plansTab.confirmDelete.body')}
        remove={(p) => plansApi.remove(p.id)}
        listKey={PLANS_KEY}
        deletedMessage={t('plansTab.toasts.deleted')}
      />
    </div>
  );
}

type Flags = Record<PlanFeature, boolean>;
/** New plans start with every feature enabled (spec 01 section 3). */
const allEnabled = (): Flags => Object.fromEntries(PLAN_FEATURES.map((f) => [f, true])) as Flags;

type PlanValues = { name: string; users: string; connections: string; queues: string; value: string } & Flags;

function PlanModal({ plan, onClose }: { plan?: PlanRow; onClose: () => void }) {
  const styles = useStyles();
  const { t } = useTranslation('settings');
  const initialValues: PlanValues = {
    name: plan?.name ?? '',
    users: String(plan?.users ?? 0),
    connections: String(plan?.connections ?? 0),
    queues: String(plan?.queues ?? 0),
    value: plan ? editableValue(plan.value) : '0,00',
    ...(plan ? (Object.fromEntries(PLAN_FEATURES.map((f) => [f, plan[f] !== false])) as Flags) : allEnabled()),
  };

  return (
    <FormDialog<PlanValues, UpdatePlanInput>
      title={plan ? t('plansTab.modal.editTitle') : t('plansTab.modal.addTitle')}
      schema={plan ? updatePlanSchema : createPlanSchema}
      initialValues={initialValues}
      toPayload={(values) => ({ ...values, value: parsePlanValue(values.value) })}
      testId="plan-modal"
      saveTestId="plan-save"
      width={600}
      onClose={onClose}
      onSubmit={async (data) => {
        if (plan) await plansApi.update(plan.id, data);
        else await plansApi.create(data as Parameters<typeof plansApi.create>[0]);
        void queryClient.invalidateQueries({ queryKey: PLANS_KEY });
        toast.success(t('plansTab.toasts.saved'));
      }}
    >
      {(form) => {
        const parsed = Number(parsePlanValue(form.values.value));
        const numberField = (field: 'users' | 'connections' | 'queues') => (
          <Field label={t(`plansTab.fields.${field}`)} {...form.field(field)}>
            <Input type="number" min={0} data-testid={`plan-${field}`} {...form.text(field)} />
          </Field>
        );
        return (
          <>
            <Field label={t('plansTab.fields.name')} required {...form.field('name')}>
              <Input maxLength={100} autoFocus data-testid="plan-name" {...form.text('name')} />
            </Field>
            <div className={styles.row}>
              {numberField('users')}
              {numberField('connections')}
              {numberField('queues')}
              <Field label={t('plansTab.fields.value')} hint={Number.isFinite(parsed) ? formatPlanValue(parsed) : undefined} {...form.field('value')}>
                <Input inputMode="decimal" contentBefore="R$" data-testid="plan-value" {...form.text('value')} />
              </Field>
            </div>
            <div className={styles.flags}>
              {PLAN_FEATURES.map((f) => (
                <Switch key={f} data-testid={`plan-flag-${f}`} label={t(`plansTab.features.${f}`)} {...form.check(f)} />
              ))}
            </div>
          </>
        );
      }}
    </FormDialog>
  );
}
