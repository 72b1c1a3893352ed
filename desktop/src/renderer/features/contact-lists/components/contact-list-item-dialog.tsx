import { Field, Input } from '@fluentui/react-components';
import { createContactListItemSchema, type CreateContactListItemInput } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { FormDialog, saveRecord } from '../../../components/list-kit';
import { CONTACT_LISTS_KEY, contactListItemsApi, ITEMS_KEY, type ContactListItem } from '../api/contact-lists';
import { queryClient } from '../../../api/query';

type Values = { name: string; number: string; email: string; contactListId: number };

/** Add or edit one contact of a list (spec 02 section 5: name 2 to 50, number 8 to 50 digits, a valid email). */
export function ContactListItemDialog({ contactListId, item, onClose }: { contactListId: number; item?: ContactListItem; onClose: () => void }) {
  const { t } = useTranslation('contact-lists');
  const api = contactListItemsApi(contactListId);
  return (
    <FormDialog<Values, CreateContactListItemInput>
      title={item ? t('items.dialog.editTitle') : t('items.dialog.addTitle')}
      schema={createContactListItemSchema}
      initialValues={{ name: item?.name ?? '', number: item?.number ?? '', email: item?.email ?? '', contactListId }}
      testId="contact-list-item-dialog"
      saveTestId="contact-list-item-save"
      onClose={onClose}
      onSubmit={async ({ contactListId: _list, ...data }) => {
        await saveRecord(api, item?.id, data, { listKey: [...ITEMS_KEY, contactListId], savedMessage: t('items.toasts.saved') });
        void queryClient.invalidateQueries({ queryKey: CONTACT_LISTS_KEY });
      }}
    >
      {(form) => (
        <>
          <Field label={t('items.dialog.name')} required {...form.field('name')}>
            <Input maxLength={50} autoFocus data-testid="contact-list-item-name" {...form.text('name')} />
          </Field>
          <Field label={t('items.dialog.number')} required {...form.field('number')}>
            <Input inputMode="tel" maxLength={60} placeholder="5511987654321" data-testid="contact-list-item-number" {...form.text('number')} />
          </Field>
          <Field label={t('items.dialog.email')} {...form.field('email')}>
            <Input type="email" maxLength={254} data-testid="contact-list-item-email" {...form.text('email')} />
          </Field>
        </>
      )}
    </FormDialog>
  );
}
