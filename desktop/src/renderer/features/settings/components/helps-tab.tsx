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
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Textarea,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { Add20Regular, Delete20Regular, Edit20Regular } from '@fluentui/react-icons';
import { createHelpSchema, updateHelpSchema } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { queryClient, useQuery } from '../../../api/query';
import { ConfirmationDialog } from '../../../components/confirmation-dialog';
import { RowAction } from '../../../components/row-action';
import { ListBody } from '../../../components/list-body';
import { validate, type FieldErrors } from '../../../components/form/validation';
import { toast } from '../../../components/toasts';
import { useSaving } from '../../../hooks/use-saving';
import { HELPS_KEY, helpsApi, type HelpRow } from '../api/helps';
import { removeRow } from '../../../hooks/remove-row';
import { SaveActions } from '../../../components/form/save-actions';

const useStyles = makeStyles({
  toolbar: { display: 'flex', justifyContent: 'flex-end', marginBottom: tokens.spacingVerticalM },
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  clip: { maxWidth: '360px', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
});

/** Settings > Help (super users): the help videos every company sees on /helps. */
export function HelpsTab() {
  const styles = useStyles();
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  const helps = useQuery(HELPS_KEY, helpsApi.list);
  const [editing, setEditing] = useState<HelpRow | 'new' | null>(null);
  const [deleting, setDeleting] = useState<HelpRow | null>(null);
  const rows = Array.isArray(helps.data) ? helps.data : [];

  const remove = (help: HelpRow) => removeRow(() => helpsApi.remove(help.id), HELPS_KEY, t('helpsTab.toasts.deleted'));

  return (
    <div data-testid="helps-tab">
      <div className={styles.toolbar}>
        <Button appearance="primary" icon={<Add20Regular />} data-testid="help-add" onClick={() => setEditing('new')}>
          {t('helpsTab.add')}
        </Button>
      </div>
      <ListBody loading={helps.isLoading} empty={rows.length === 0} emptyTitle={t('helpsTab.empty')}>
        <Table aria-label={t('tabs.helps')}>
          <TableHeader>
            <TableRow>
              <TableHeaderCell>{t('helpsTab.columns.title')}</TableHeaderCell>
              <TableHeaderCell>{t('helpsTab.columns.description')}</TableHeaderCell>
              <TableHeaderCell>{t('helpsTab.columns.video')}</TableHeaderCell>
              <TableHeaderCell style={{ width: 100 }}>{t('helpsTab.columns.actions')}</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((h) => (
              <TableRow key={h.id} data-testid={`help-row-${h.id}`}>
                <TableCell>{h.title}</TableCell>
                <TableCell>
                  <span className={styles.clip}>{h.description}</span>
                </TableCell>
                <TableCell>
                  <span className={styles.clip}>{h.video}</span>
                </TableCell>
                <TableCell>
                  <RowAction label={tc('actions.edit')} icon={<Edit20Regular />} testId={`help-edit-${h.id}`} onClick={() => setEditing(h)} />
                  <RowAction label={tc('actions.delete')} icon={<Delete20Regular />} testId={`help-delete-${h.id}`} onClick={() => setDeleting(h)} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </ListBody>
      {editing ? (
        <HelpModal key={editing === 'new' ? 'new' : editing.id} help={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />
      ) : null}
      <ConfirmationDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t('helpsTab.confirmDelete.title', { title: deleting?.title ?? '' })}
        confirmLabel={tc('actions.delete')}
        destructive
        onConfirm={() => (deleting ? remove(deleting) : undefined)}
      >
        {t('helpsTab.confirmDelete.body')}
      </ConfirmationDialog>
    </div>
  );
}

function HelpModal({ help, onClose }: { help?: HelpRow; onClose: () => void }) {
  const styles = useStyles();
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  const [title, setTitle] = useState(help?.title ?? '');
  const [description, setDescription] = useState(help?.description ?? '');
  const [video, setVideo] = useState(help?.video ?? '');
  const [errors, setErrors] = useState<FieldErrors>({});
  const { saving, run } = useSaving();

  const submit = async () => {
    const values = { title, description, video };
    const result = help ? validate(updateHelpSchema, values, tc) : validate(createHelpSchema, values, tc);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    await run(async () => {
      if (help) await helpsApi.update(help.id, result.data);
      else await helpsApi.create(result.data as Parameters<typeof helpsApi.create>[0]);
      void queryClient.invalidateQueries({ queryKey: HELPS_KEY });
      toast.success(t('helpsTab.toasts.saved'));
      onClose();
    });
  };

  return (
    <Dialog open onOpenChange={(_, d) => !d.open && !saving && onClose()}>
      <DialogSurface data-testid="help-modal">
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <DialogBody>
            <DialogTitle>{help ? t('helpsTab.modal.editTitle') : t('helpsTab.modal.addTitle')}</DialogTitle>
            <DialogContent className={styles.content}>
              <Field label={t('helpsTab.fields.title')} required validationMessage={errors.title}>
                <Input value={title} maxLength={200} autoFocus data-testid="help-title" onChange={(_, d) => setTitle(d.value)} />
              </Field>
              <Field label={t('helpsTab.fields.video')} hint={t('helpsTab.fields.videoHint')} validationMessage={errors.video}>
                <Input value={video} maxLength={300} data-testid="help-video" onChange={(_, d) => setVideo(d.value)} />
              </Field>
              <Field label={t('helpsTab.fields.description')} validationMessage={errors.description}>
                <Textarea value={description} rows={4} resize="vertical" data-testid="help-description" onChange={(_, d) => setDescription(d.value)} />
              </Field>
            </DialogContent>
            <SaveActions saving={saving} onCancel={onClose} saveTestId="help-save" />
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
