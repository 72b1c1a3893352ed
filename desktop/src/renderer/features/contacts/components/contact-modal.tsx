import { useEffect, useState } from 'react';
import {
  Button,
  Dialog,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { Add20Regular, Delete20Regular } from '@fluentui/react-icons';
import { createContactSchema, updateContactSchema } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { queryClient } from '../../../api/query';
import { toast } from '../../../components/toasts';
import { validate, type FieldErrors } from '../../../components/form/validation';
import { CONTACTS_KEY, contactsApi, type Contact, type ExtraInfo } from '../api/contacts';
import { useSaving } from '../../../hooks/use-saving';
import { SaveActions } from '../../../components/form/save-actions';

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  extra: { display: 'grid', gridTemplateColumns: '1fr 2fr auto', gap: tokens.spacingHorizontalS, alignItems: 'end' },
});

/** Add or edit a contact: name 2-50, number 8-50, email, extra info pairs. */
export function ContactModal({ contact, onClose }: { contact?: Contact; onClose: () => void }) {
  const styles = useStyles();
  const { t } = useTranslation('contacts');
  const { t: tc } = useTranslation();
  const [name, setName] = useState(contact?.name ?? '');
  const [number, setNumber] = useState(contact?.number ?? '');
  const [email, setEmail] = useState(contact?.email ?? '');
  const [extra, setExtra] = useState<ExtraInfo[]>(contact?.extraInfo ?? []);
  const [errors, setErrors] = useState<FieldErrors>({});
  const { saving, run } = useSaving();

  // The list rows carry no extra info: load the contact.
  useEffect(() => {
    if (!contact) return;
    let live = true;
    contactsApi.get(contact.id).then(
      (full) => live && setExtra(full.extraInfo ?? []),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [contact]);

  const submit = async () => {
    const values = { name, number, email, extraInfo: extra.filter((e) => e.name.trim() || e.value.trim()) };
    const result = contact ? validate(updateContactSchema, values, tc) : validate(createContactSchema, values, tc);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    await run(async () => {
      if (contact) await contactsApi.update(contact.id, result.data);
      else await contactsApi.create(result.data as Parameters<typeof contactsApi.create>[0]);
      void queryClient.invalidateQueries({ queryKey: CONTACTS_KEY });
      toast.success(t('toasts.saved'));
      onClose();
    });
  };

  return (
    <Dialog open onOpenChange={(_, d) => !d.open && !saving && onClose()}>
      <DialogSurface data-testid="contact-modal">
        <form noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <DialogBody>
            <DialogTitle>{contact ? t('modal.editTitle') : t('modal.addTitle')}</DialogTitle>
            <DialogContent className={styles.content}>
              <Field label={t('modal.name')} required validationMessage={errors.name}>
                <Input value={name} maxLength={50} autoFocus data-testid="contact-name" onChange={(_, d) => setName(d.value)} />
              </Field>
              <Field label={t('modal.number')} required validationMessage={errors.number}>
                <Input value={number} maxLength={50} placeholder="5513912344321" data-testid="contact-number" onChange={(_, d) => setNumber(d.value)} />
              </Field>
              <Field label={t('modal.email')} validationMessage={errors.email}>
                <Input type="email" value={email} data-testid="contact-email" onChange={(_, d) => setEmail(d.value)} />
              </Field>
              <Text weight="semibold">{t('modal.extraInfo')}</Text>
              {extra.map((item, i) => (
                <div key={i} className={styles.extra}>
                  <Field label={t('modal.extraName')}>
                    <Input
                      value={item.name}
                      onChange={(_, d) => setExtra((list) => list.map((e, j) => (j === i ? { ...e, name: d.value } : e)))}
                    />
                  </Field>
                  <Field label={t('modal.extraValue')}>
                    <Input
                      value={item.value}
                      onChange={(_, d) => setExtra((list) => list.map((e, j) => (j === i ? { ...e, value: d.value } : e)))}
                    />
                  </Field>
                  <Button
                    appearance="subtle"
                    icon={<Delete20Regular />}
                    aria-label={t('modal.removeExtra')}
                    onClick={() => setExtra((list) => list.filter((_, j) => j !== i))}
                  />
                </div>
              ))}
              {errors.extraInfo ? <Text style={{ color: tokens.colorPaletteRedForeground1 }}>{errors.extraInfo}</Text> : null}
              <div>
                <Button icon={<Add20Regular />} onClick={() => setExtra((list) => [...list, { name: '', value: '' }])}>
                  {t('modal.addExtra')}
                </Button>
              </div>
            </DialogContent>
            <SaveActions saving={saving} onCancel={onClose} saveTestId="contact-save" />
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
