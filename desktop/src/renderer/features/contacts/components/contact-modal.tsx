import { useEffect } from 'react';
import { Button, Dialog, DialogBody, DialogSurface, Field, Input, Spinner, Text, makeStyles, tokens } from '@fluentui/react-components';
import { Add20Regular, Delete20Regular } from '@fluentui/react-icons';
import { createContactSchema, updateContactSchema, type UpdateContactInput } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { useQuery } from '../../../api/query';
import { FormDialog, saveRecord } from '../../../components/list-kit';
import { CONTACTS_KEY, contactsApi, type Contact, type ExtraInfo } from '../api/contacts';

const useStyles = makeStyles({
  extra: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 2fr) auto', gap: tokens.spacingHorizontalS, alignItems: 'end' },
  // Fluent's inputs keep a minimum width of their own: in a narrow grid column they would overlap the next.
  extraInput: { minWidth: 0, width: '100%' },
  error: { color: tokens.colorPaletteRedForeground1 },
  loading: { display: 'flex', justifyContent: 'center', padding: tokens.spacingVerticalXXL },
});

type ContactValues = { name: string; number: string; email: string; extraInfo: ExtraInfo[] };

/**
 * Add or edit a contact: name 2-50, number 8-50, email, extra info pairs. The list rows carry no extra
 * info, so an edit opens once the contact is read: nothing typed is replaced by a late answer.
 */
export function ContactModal({ contact, onClose }: { contact?: Contact; onClose: () => void }) {
  const styles = useStyles();
  const { t } = useTranslation('contacts');
  const full = useQuery<Contact>([...CONTACTS_KEY, 'one', contact?.id ?? 0], () => contactsApi.get(contact!.id), { enabled: !!contact });
  // Gone or unreadable (toasted by the query layer): nothing to edit.
  useEffect(() => {
    if (full.status === 'error') onClose();
  }, [full.status, onClose]);

  if (contact && !full.data) {
    return (
      <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
        <DialogSurface data-testid="contact-modal-loading">
          <DialogBody>
            <div className={styles.loading}>
              <Spinner />
            </div>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    );
  }

  const initialValues: ContactValues = {
    name: contact?.name ?? '',
    number: contact?.number ?? '',
    email: contact?.email ?? '',
    extraInfo: full.data?.extraInfo ?? [],
  };
  return (
    <FormDialog<ContactValues, UpdateContactInput>
      title={contact ? t('modal.editTitle') : t('modal.addTitle')}
      schema={contact ? updateContactSchema : createContactSchema}
      initialValues={initialValues}
      // Empty pairs (an added row left blank) are not sent.
      toPayload={(values) => ({ ...values, extraInfo: values.extraInfo.filter((e) => e.name.trim() || e.value.trim()) })}
      testId="contact-modal"
      saveTestId="contact-save"
      cancelTestId="contact-cancel"
      onClose={onClose}
      onSubmit={(data) => saveRecord(contactsApi, contact?.id, data, { listKey: CONTACTS_KEY, savedMessage: t('toasts.saved') })}
    >
      {(form) => {
        const extra = form.values.extraInfo;
        const setExtra = (next: ExtraInfo[]) => form.set('extraInfo', next);
        return (
          <>
            <Field label={t('modal.name')} required {...form.field('name')}>
              <Input maxLength={50} autoFocus data-testid="contact-name" {...form.text('name')} />
            </Field>
            <Field label={t('modal.number')} required {...form.field('number')}>
              <Input maxLength={50} placeholder="5513912344321" data-testid="contact-number" {...form.text('number')} />
            </Field>
            <Field label={t('modal.email')} {...form.field('email')}>
              <Input type="email" data-testid="contact-email" {...form.text('email')} />
            </Field>
            <Text weight="semibold">{t('modal.extraInfo')}</Text>
            {extra.map((item, i) => (
              <div key={i} className={styles.extra} data-testid={`contact-extra-${i}`}>
                <Field label={t('modal.extraName')}>
                  <Input className={styles.extraInput} value={item.name} onChange={(_, d) => setExtra(extra.map((e, j) => (j === i ? { ...e, name: d.value } : e)))} />
                </Field>
                <Field label={t('modal.extraValue')}>
                  <Input className={styles.extraInput} value={item.value} onChange={(_, d) => setExtra(extra.map((e, j) => (j === i ? { ...e, value: d.value } : e)))} />
                </Field>
                <Button
                  appearance="subtle"
                  icon={<Delete20Regular />}
                  aria-label={t('modal.removeExtra')}
                  onClick={() => setExtra(extra.filter((_, j) => j !== i))}
                />
              </div>
            ))}
            {form.errors.extraInfo ? <Text className={styles.error}>{form.errors.extraInfo}</Text> : null}
            <div>
              <Button icon={<Add20Regular />} data-testid="contact-add-extra" onClick={() => setExtra([...extra, { name: '', value: '' }])}>
                {t('modal.addExtra')}
              </Button>
            </div>
          </>
        );
      }}
    </FormDialog>
  );
}
