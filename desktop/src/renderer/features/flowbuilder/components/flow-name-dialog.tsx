import { Field, Input } from '@fluentui/react-components';
import { createFlowSchema, updateFlowSchema } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FormDialog, saveRecord } from '../../../components/list-kit';
import { FLOWS_KEY, flowsApi, type Flow } from '../api/flows';

/** Add a flow (then its canvas opens) or rename one: its name, 2 to 50 characters (spec 02 section 5). */
export function FlowNameDialog({ flow, onClose }: { flow?: Flow; onClose: () => void }) {
  const { t } = useTranslation('flowbuilder');
  const navigate = useNavigate();
  return (
    <FormDialog<{ name: string }, { name?: string }>
      title={flow ? t('nameDialog.editTitle') : t('nameDialog.addTitle')}
      schema={flow ? updateFlowSchema : createFlowSchema}
      initialValues={{ name: flow?.name ?? '' }}
      toPayload={({ name }) => (flow ? { flowId: flow.id, name } : { name })}
      messages={{ name: { required: t('validation.nameRequired'), tooShort: t('validation.nameShort'), tooLong: t('validation.nameLong') } }}
      testId="flow-name-dialog"
      onClose={onClose}
      onSubmit={async (_data, { name }) => {
        const saved = await saveRecord(flowsApi, flow?.id, { name }, { listKey: FLOWS_KEY, savedMessage: t('toasts.nameSaved') });
        if (!flow) navigate(`/flowbuilder/${saved.id}`);
      }}
    >
      {(form) => (
        <Field label={t('nameDialog.name')} required {...form.field('name')}>
          <Input maxLength={50} autoFocus data-testid="flow-name" {...form.text('name')} />
        </Field>
      )}
    </FormDialog>
  );
}
