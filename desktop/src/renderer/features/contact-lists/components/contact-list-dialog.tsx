import { Field, Input } from '@fluentui/react-components';
import { createContactListSchema, type CreateContactListInput } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { FormDialog, saveRecord } from '../../../components/list-kit';
import { CONTACT_LISTS_KEY, contactListsApi, type ContactList } from '../api/contact-lists';

/** Add or rename a contact list (spec 02 section 5: name 2 to 50). */
export function ContactListDialog({ list, onClose }: { list?: ContactList; onClose: () => void }) {
  const { t } = useTranslation('contact-lists');
  return (
    <FormDialog<{ name: string }, CreateContactListInput>
      title={list ? t('dialog.editTitle') : t('dialog.addTitle')}
      schema={createContactListSchema}
      initialValues={{ name: list?.name ?? '' }}
      testId="contact-list-dialog"
      saveTestId="contact-list-save"
      onClose={onClose}
      onSubmit={(data) => saveRecord(contactListsApi, list?.id, data, { listKey: CONTACT_LISTS_KEY, savedMessage: t('toasts.saved') })}
    >
      {(form) => (
        <Field label={t('dialog.name')} required {...form.field('name')}>
          <Input maxLength={50} autoFocus data-testid="contact-list-name" {...form.text('name')} />
        </Field>
      )}
    </FormDialog>
  );
}
