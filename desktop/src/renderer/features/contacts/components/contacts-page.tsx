import { useRef, useState, type ChangeEvent } from 'react';
import { Avatar, Button, Spinner } from '@fluentui/react-components';
import { ArrowDownload20Regular, ArrowUpload20Regular, Chat20Regular } from '@fluentui/react-icons';
import { can } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { errorCodeOf, toastError } from '../../../api/errors';
import { queryClient } from '../../../api/query';
import { CrudListPage, mergeRecordEvent, type Column } from '../../../components/list-kit';
import { RowAction } from '../../../components/row-action';
import { toast } from '../../../components/toasts';
import { useCurrentUser } from '../../../stores/auth-store';
import {
  CONTACTS_KEY,
  CSV_FILE_NAME,
  contactsApi,
  contactsCsv,
  isXlsx,
  type Contact,
  type ImportResult,
  type TicketRef,
} from '../api/contacts';
import { ContactModal } from './contact-modal';
import { ImportResultDialog } from './import-result-dialog';

/** Saves text as a file in the browser (or the desktop's download handler). */
export const downloadText = (text: string, fileName: string, type = 'text/csv;charset=utf-8') => {
  const url = URL.createObjectURL(new Blob(['\ufeff', text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
};

interface ContactEvent {
  action: string;
  contact?: Contact;
  contactId?: number;
}

/** /contacts. */
export default function ContactsPage() {
  const { t } = useTranslation('contacts');
  const user = useCurrentUser();
  const navigate = useNavigate();
  const [importResult, setImportResult] = useState<ImportResult | null>(null);
  const [busy, setBusy] = useState<'import' | 'export' | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const canDelete = can(user?.profile, 'contacts-page:deleteContact');

  const startTicket = async (contact: Contact) => {
    if (!user) return;
    try {
      const connections = await contactsApi.connections();
      const whatsappId = user.whatsappId ?? connections.find((c) => c.isDefault)?.id ?? connections[0]?.id ?? null;
      const ticket = await contactsApi.startTicket({ contactId: contact.id, userId: user.id, whatsappId, status: 'open' });
      navigate(`/tickets/${ticket.uuid}`);
    } catch (err) {
      if (errorCodeOf(err) === 'ERR_OTHER_OPEN_TICKET') {
        const body = (err as { response?: { data?: { ticket?: TicketRef } } }).response?.data;
        const existing = body?.ticket;
        if (existing && existing.userId && existing.userId !== user.id) {
          toast.warning(t('ticketOwned', { user: existing.user?.name ?? '', queue: existing.queue?.name ?? t('noQueue') }));
          return;
        }
        if (existing?.uuid) {
          navigate(`/tickets/${existing.uuid}`);
          return;
        }
      }
      toastError(err);
    }
  };

  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    if (!isXlsx(file)) {
      toast.error(t('onlyXlsx'));
      return;
    }
    setBusy('import');
    try {
      setImportResult(await contactsApi.importXlsx(file));
      void queryClient.invalidateQueries({ queryKey: CONTACTS_KEY });
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(null);
    }
  };

  const exportCsv = async () => {
    setBusy('export');
    try {
      downloadText(contactsCsv(await contactsApi.all()), CSV_FILE_NAME);
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(null);
    }
  };

  const columns: Column<Contact>[] = [
    {
      id: 'picture',
      header: '',
      width: 56,
      secondary: true,
      cell: (c) => <Avatar name={c.name} image={c.profilePicUrl ? { src: c.profilePicUrl } : undefined} size={32} />,
    },
    { id: 'name', header: t('columns.name'), cell: (c) => c.name },
    { id: 'number', header: t('columns.number'), cell: (c) => c.number },
    { id: 'email', header: t('columns.email'), secondary: true, cell: (c) => c.email },
  ];

  return (
    <CrudListPage<Contact, ContactEvent>
      namespace="contacts"
      queryKey={CONTACTS_KEY}
      api={contactsApi}
      testIds={{ page: 'contacts', row: 'contact' }}
      columns={columns}
      lowerCaseSearch
      canDelete={canDelete}
      // A created contact goes on top; one not loaded that changed stays out.
      realtime={{
        resource: 'contact',
        merge: (items, event) =>
          mergeRecordEvent(items, { action: event.action, record: event.contact, id: event.contactId }, { insert: 'start', onlyCreated: true }),
      }}
      deleteTitleValues={(c) => ({ name: c.name })}
      dialog={({ item, onClose }) => <ContactModal contact={item} onClose={onClose} />}
      rowActions={(c) => <RowAction label={t('actions.startTicket')} icon={<Chat20Regular />} onClick={() => void startTicket(c)} />}
      actionsWidth={140}
      // Infinite scroll, and a button for who does not scroll (keyboard).
      loadMoreButton
      headerExtra={
        <>
          <input
            ref={fileInput}
            type="file"
            accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            hidden
            data-testid="contacts-import-input"
            onChange={(e) => void onFile(e)}
          />
          <Button
            icon={busy === 'import' ? <Spinner size="tiny" /> : <ArrowUpload20Regular />}
            disabled={busy !== null}
            data-testid="contacts-import"
            onClick={() => fileInput.current?.click()}
          >
            {t('import')}
          </Button>
          <Button
            icon={busy === 'export' ? <Spinner size="tiny" /> : <ArrowDownload20Regular />}
            disabled={busy !== null}
            data-testid="contacts-export"
            onClick={() => void exportCsv()}
          >
            {t('export')}
          </Button>
        </>
      }
    >
      {importResult ? <ImportResultDialog result={importResult} onClose={() => setImportResult(null)} /> : null}
    </CrudListPage>
  );
}
