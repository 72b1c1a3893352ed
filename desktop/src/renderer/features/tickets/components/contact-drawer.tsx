import { useEffect, useState } from 'react';
import {
  Avatar,
  Button,
  Divider,
  DrawerBody,
  DrawerHeader,
  DrawerHeaderTitle,
  Field,
  Input,
  makeStyles,
  OverlayDrawer,
  Text,
  Textarea,
  tokens,
} from '@fluentui/react-components';
import { Add16Regular, Delete16Regular, Dismiss24Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { createTicketNoteSchema, updateContactSchema } from '@atrium/shared';
import { toast } from '../../../components/toasts';
import { validate, type FieldErrors } from '../../../components/form/validation';
import { toastError } from '../../../api/errors';
import { queryClient, useQuery } from '../../../api/query';
import { formatDateTime } from '../../../i18n/format';
import { createNote, deleteNote, fetchContact, fetchNotes, updateContact } from '../api/tickets';
import type { ExtraInfo, Ticket } from '../api/types';

const useStyles = makeStyles({
  header: { display: 'flex', flexDirection: 'column', alignItems: 'center', gap: '6px', padding: tokens.spacingVerticalM },
  section: { display: 'flex', flexDirection: 'column', gap: '8px', padding: `${tokens.spacingVerticalM} 0` },
  pair: { display: 'flex', gap: '6px', alignItems: 'flex-end' },
  note: {
    display: 'flex',
    gap: '6px',
    alignItems: 'flex-start',
    padding: '6px 8px',
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
  },
  noteText: { flex: 1, whiteSpace: 'pre-wrap' },
  notes: { display: 'flex', flexDirection: 'column', gap: '8px' },
  muted: { color: tokens.colorNeutralForeground3 },
});

/** The contact drawer from the conversation header: header, edit form, ticket notes, extra info. */
export function ContactDrawer({ ticket, open, onOpenChange }: { ticket: Ticket; open: boolean; onOpenChange: (open: boolean) => void }) {
  const styles = useStyles();
  const { t } = useTranslation('tickets');
  const { t: tc } = useTranslation();
  const contactId = ticket.contactId;
  const contact = useQuery(['contact', contactId], () => fetchContact(contactId), { enabled: open });
  const notes = useQuery(['ticket-notes', ticket.id], () => fetchNotes(ticket.id, contactId), { enabled: open });
  const [form, setForm] = useState({ name: '', number: '', email: '' });
  const [extra, setExtra] = useState<ExtraInfo[]>([]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!contact.data) return;
    setForm({ name: contact.data.name, number: contact.data.number ?? '', email: contact.data.email ?? '' });
    setExtra(contact.data.extraInfo ?? []);
  }, [contact.data]);

  const save = async () => {
    const values = { ...form, extraInfo: extra.filter((e) => e.name.trim() !== '') };
    const result = validate(updateContactSchema, values, tc);
    setErrors(result.errors);
    if (!result.ok) return;
    setBusy(true);
    try {
      const saved = await updateContact(contactId, result.data);
      contact.setData(saved);
      // The conversation header and the lists show the new name at once.
      queryClient.setQueryData<Ticket>(['ticket', ticket.uuid], (old) => (old ? { ...old, contact: { ...old.contact, ...saved } } : old));
      void queryClient.invalidateQueries({ queryKey: ['tickets'] });
      toast.success(t('contact.saved'));
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  const addNote = async () => {
    const result = validate(createTicketNoteSchema, { note, ticketId: ticket.id, contactId }, tc);
    setNoteError(result.errors.note ?? '');
    if (!result.ok) return;
    try {
      await createNote({ note: note.trim(), ticketId: ticket.id, contactId });
      setNote('');
      toast.success(t('contact.noteAdded'));
      await notes.refetch();
    } catch (err) {
      toastError(err);
    }
  };

  const removeNote = async (id: number) => {
    try {
      await deleteNote(id);
      toast.success(t('contact.noteDeleted'));
      notes.setData((old) => old?.filter((n) => n.id !== id));
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <OverlayDrawer position="end" size="medium" open={open} onOpenChange={(_, d) => onOpenChange(d.open)}>
      <DrawerHeader>
        <DrawerHeaderTitle
          action={<Button appearance="subtle" aria-label={tc('actions.close')} icon={<Dismiss24Regular />} onClick={() => onOpenChange(false)} />}
        >
          {t('contact.title')}
        </DrawerHeaderTitle>
      </DrawerHeader>
      <DrawerBody>
        <div className={styles.header} data-testid="contact-drawer-header">
          <Avatar size={72} name={ticket.contact?.name} image={ticket.contact?.profilePicUrl ? { src: ticket.contact.profilePicUrl } : undefined} />
          <Text weight="semibold" size={500}>
            {contact.data?.name ?? ticket.contact?.name}
          </Text>
          <Text className={styles.muted}>{contact.data?.number ?? ticket.contact?.number}</Text>
          {contact.data?.email ? <Text className={styles.muted}>{contact.data.email}</Text> : null}
        </div>
        <Divider />
        <div className={styles.section}>
          <Text weight="semibold">{t('contact.edit')}</Text>
          <Field label={t('contact.name')} validationMessage={errors.name} required>
            <Input value={form.name} onChange={(_, d) => setForm({ ...form, name: d.value })} />
          </Field>
          <Field label={t('contact.number')} validationMessage={errors.number}>
            <Input value={form.number} onChange={(_, d) => setForm({ ...form, number: d.value })} />
          </Field>
          <Field label={t('contact.email')} validationMessage={errors.email}>
            <Input value={form.email} onChange={(_, d) => setForm({ ...form, email: d.value })} />
          </Field>
          <Text weight="semibold">{t('contact.extraInfo')}</Text>
          {extra.map((info, i) => (
            <div className={styles.pair} key={info.id ?? `new-${i}`}>
              <Field label={t('contact.extraName')} style={{ flex: 1 }}>
                <Input value={info.name} onChange={(_, d) => setExtra(extra.map((e, j) => (j === i ? { ...e, name: d.value } : e)))} />
              </Field>
              <Field label={t('contact.extraValue')} style={{ flex: 1 }}>
                <Input value={info.value} onChange={(_, d) => setExtra(extra.map((e, j) => (j === i ? { ...e, value: d.value } : e)))} />
              </Field>
              <Button
                appearance="subtle"
                icon={<Delete16Regular />}
                aria-label={t('contact.removeExtra', { name: info.name })}
                onClick={() => setExtra(extra.filter((_, j) => j !== i))}
              />
            </div>
          ))}
          <div>
            <Button size="small" icon={<Add16Regular />} onClick={() => setExtra([...extra, { name: '', value: '' }])}>
              {t('contact.addExtra')}
            </Button>
          </div>
          <div>
            <Button appearance="primary" disabled={busy} onClick={() => void save()}>
              {tc('actions.save')}
            </Button>
          </div>
        </div>
        <Divider />
        <div className={styles.section}>
          <Text weight="semibold">{t('contact.notes')}</Text>
          <Field validationMessage={noteError}>
            <Textarea value={note} placeholder={t('contact.notePlaceholder')} onChange={(_, d) => setNote(d.value)} />
          </Field>
          <div>
            <Button size="small" appearance="primary" onClick={() => void addNote()}>
              {t('contact.addNote')}
            </Button>
          </div>
          <div className={styles.notes} data-testid="ticket-notes">
            {notes.data?.length === 0 ? <Text className={styles.muted}>{t('contact.noNotes')}</Text> : null}
            {(notes.data ?? []).map((n) => (
              <div key={n.id} className={styles.note}>
                <div className={styles.noteText}>
                  <Text block>{n.note}</Text>
                  <Text size={100} className={styles.muted}>
                    {n.user?.name} · {formatDateTime(n.createdAt)}
                  </Text>
                </div>
                <Button
                  size="small"
                  appearance="subtle"
                  icon={<Delete16Regular />}
                  aria-label={t('contact.deleteNote', { note: n.note.length > 40 ? `${n.note.slice(0, 40)}…` : n.note })}
                  onClick={() => void removeNote(n.id)}
                />
              </div>
            ))}
          </div>
        </div>
        <Divider />
        <div className={styles.section} data-testid="contact-extra-list">
          <Text weight="semibold">{t('contact.extraInfo')}</Text>
          {(contact.data?.extraInfo ?? []).length === 0 ? <Text className={styles.muted}>{t('contact.noExtra')}</Text> : null}
          {(contact.data?.extraInfo ?? []).map((info) => (
            <div key={info.id ?? info.name}>
              <Text weight="semibold" size={200} block>
                {info.name}
              </Text>
              <Text>{info.value}</Text>
            </div>
          ))}
        </div>
      </DrawerBody>
    </OverlayDrawer>
  );
}
