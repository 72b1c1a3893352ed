import { useRef, useState, type ChangeEvent } from 'react';
import { Avatar, Button, Spinner, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowDownload20Regular, ArrowUpload20Regular, Chat20Regular } from '@fluentui/react-icons';
import { can } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { errorCodeOf, toastError } from '../../../api/errors';
import { queryClient, updatePagedItems, usePagedQuery } from '../../../api/query';
import { useRealtimeEvent } from '../../../api/socket';
import {
  DataTable,
  DeleteDialog,
  EditDeleteActions,
  InfiniteList,
  ListHeader,
  useListDialogs,
  useSearch,
  type Column,
} from '../../../components/list-kit';
import { PageContainer, PageContent } from '../../../components/page-container';
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

const useStyles = makeStyles({
  actions: { display: 'flex', gap: tokens.spacingHorizontalXS },
  more: { display: 'flex', justifyContent: 'center', padding: tokens.spacingVerticalM },
});

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
  const styles = useStyles();
  const { t } = useTranslation('contacts');
  const { t: tc } = useTranslation();
  const user = useCurrentUser();
  const navigate = useNavigate();
  const { search, setSearch, searchParam } = useSearch({ lowerCase: true });
  const list = usePagedQuery<Contact>([...CONTACTS_KEY, { searchParam }], (page) => contactsApi.page(searchParam, page));
  const dialogs = useListDialogs<Contact>();
  const [importResult, setImportResult] = useState<ImportResult | null>(null);
  const [busy, setBusy] = useState<'import' | 'export' | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const canDelete = can(user?.profile, 'contacts-page:deleteContact');

  useRealtimeEvent<ContactEvent>('contact', (event) => {
    updatePagedItems<Contact>(CONTACTS_KEY, (items) => {
      if (event.action === 'delete') {
        const id = event.contactId ?? event.contact?.id;
        return items.filter((c) => c.id !== id);
      }
      const changed = event.contact;
      if (!changed) return items;
      if (items.some((c) => c.id === changed.id)) {
        return items.map((c) => (c.id === changed.id ? { ...c, ...changed } : c));
      }
      return event.action === 'create' ? [changed, ...items] : items;
    });
  });

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
    <PageContainer>
      <ListHeader
        title={t('title')}
        search={{ value: search, onChange: setSearch, label: t('search'), testId: 'contacts-search' }}
        add={{ label: t('add'), onClick: dialogs.openAdd, testId: 'contacts-add' }}
        extra={
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
      />
      <PageContent>
        <InfiniteList
          list={list}
          emptyTitle={t('empty')}
          testId="contacts-scroller"
        >
          <DataTable
            label={t('title')}
            rows={list.items}
            columns={columns}
            rowKey={(c) => c.id}
            rowTestId={(c) => `contact-row-${c.id}`}
            actionsHeader={t('columns.actions')}
            actionsWidth={140}
            actions={(c) => (
              <div className={styles.actions}>
                <RowAction label={t('actions.startTicket')} icon={<Chat20Regular />} onClick={() => void startTicket(c)} />
                <EditDeleteActions
                  testIdPrefix="contact"
                  id={c.id}
                  onEdit={() => dialogs.openEdit(c)}
                  onDelete={canDelete ? () => dialogs.askDelete(c) : undefined}
                />
              </div>
            )}
          />
          {/* Infinite scroll, and a button for who does not scroll (keyboard). */}
          {list.hasMore ? (
            <div className={styles.more}>
              <Button appearance="subtle" disabled={list.isFetching} onClick={() => void list.loadMore()}>
                {tc('actions.loadMore')}
              </Button>
            </div>
          ) : null}
        </InfiniteList>
      </PageContent>
      {dialogs.editing ? <ContactModal key={dialogs.edited?.id ?? 'new'} contact={dialogs.edited} onClose={dialogs.closeForm} /> : null}
      {importResult ? <ImportResultDialog result={importResult} onClose={() => setImportResult(null)} /> : null}
      <DeleteDialog
        item={dialogs.deleting}
        onClose={dialogs.closeDelete}
        title={(c) => t('confirmDelete.title', { name: c.name })}
        body={t('confirmDelete.body')}
        remove={(c) => contactsApi.remove(c.id)}
        listKey={CONTACTS_KEY}
        deletedMessage={t('toasts.deleted')}
      />
    </PageContainer>
  );
}
