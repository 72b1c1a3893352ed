import { Button, Field, Input, Textarea, makeStyles, tokens } from '@fluentui/react-components';
import { Add20Regular } from '@fluentui/react-icons';
import { createHelpSchema, updateHelpSchema, type UpdateHelpInput } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { queryClient, useQuery } from '../../../api/query';
import { ListBody } from '../../../components/list-body';
import { DataTable, DeleteDialog, EditDeleteActions, FormDialog, useListDialogs, type Column } from '../../../components/list-kit';
import { toast } from '../../../components/toasts';
import { HELPS_KEY, helpsApi, type HelpRow } from '../api/helps';

const useStyles = makeStyles({
  toolbar: { display: 'flex', justifyContent: 'flex-end', marginBottom: tokens.spacingVerticalM },
  clip: { display: 'block', maxWidth: '360px', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
});

/** Settings > Help (super users): the help videos every company sees on /helps. */
export function HelpsTab() {
  const styles = useStyles();
  const { t } = useTranslation('settings');
  const helps = useQuery(HELPS_KEY, helpsApi.list);
  const dialogs = useListDialogs<HelpRow>();
  const rows = Array.isArray(helps.data) ? helps.data : [];

  const columns: Column<HelpRow>[] = [
    { id: 'title', header: t('helpsTab.columns.title'), cell: (h) => h.title },
    { id: 'description', header: t('helpsTab.columns.description'), secondary: true, cell: (h) => <span className={styles.clip}>{h.description}</span> },
    { id: 'video', header: t('helpsTab.columns.video'), cell: (h) => <span className={styles.clip}>{h.video}</span> },
  ];

  return (
    <div data-testid="helps-tab">
      <div className={styles.toolbar}>
        <Button appearance="primary" icon={<Add20Regular />} data-testid="help-add" onClick={dialogs.openAdd}>
          {t('helpsTab.add')}
        </Button>
      </div>
      <ListBody loading={helps.isLoading} empty={rows.length === 0} emptyTitle={t('helpsTab.empty')}>
        <DataTable
          label={t('tabs.helps')}
          rows={rows}
          columns={columns}
          rowKey={(h) => h.id}
          rowTestId={(h) => `help-row-${h.id}`}
          actionsHeader={t('helpsTab.columns.actions')}
          actions={(h) => <EditDeleteActions testIdPrefix="help" id={h.id} onEdit={() => dialogs.openEdit(h)} onDelete={() => dialogs.askDelete(h)} />}
        />
      </ListBody>
      {dialogs.editing ? <HelpModal key={dialogs.edited?.id ?? 'new'} help={dialogs.edited} onClose={dialogs.closeForm} /> : null}
      <DeleteDialog
        item={dialogs.deleting}
        onClose={dialogs.closeDelete}
        title={(h) => t('helpsTab.confirmDelete.title', { title: h.title })}
        body={t('helpsTab.confirmDelete.body')}
        remove={(h) => helpsApi.remove(h.id)}
        listKey={HELPS_KEY}
        deletedMessage={t('helpsTab.toasts.deleted')}
      />
    </div>
  );
}

type HelpValues = { title: string; description: string; video: string };

function HelpModal({ help, onClose }: { help?: HelpRow; onClose: () => void }) {
  const { t } = useTranslation('settings');
  return (
    <FormDialog<HelpValues, UpdateHelpInput>
      title={help ? t('helpsTab.modal.editTitle') : t('helpsTab.modal.addTitle')}
      schema={help ? updateHelpSchema : createHelpSchema}
      initialValues={{ title: help?.title ?? '', description: help?.description ?? '', video: help?.video ?? '' }}
      testId="help-modal"
      saveTestId="help-save"
      width={600}
      onClose={onClose}
      onSubmit={async (data) => {
        if (help) await helpsApi.update(help.id, data);
        else await helpsApi.create(data as Parameters<typeof helpsApi.create>[0]);
        void queryClient.invalidateQueries({ queryKey: HELPS_KEY });
        toast.success(t('helpsTab.toasts.saved'));
      }}
    >
      {(form) => (
        <>
          <Field label={t('helpsTab.fields.title')} required {...form.field('title')}>
            <Input maxLength={200} autoFocus data-testid="help-title" {...form.text('title')} />
          </Field>
          <Field label={t('helpsTab.fields.video')} hint={t('helpsTab.fields.videoHint')} {...form.field('video')}>
            <Input maxLength={300} data-testid="help-video" {...form.text('video')} />
          </Field>
          <Field label={t('helpsTab.fields.description')} {...form.field('description')}>
            <Textarea rows={4} resize="vertical" data-testid="help-description" {...form.text('description')} />
          </Field>
        </>
      )}
    </FormDialog>
  );
}
