import { useRef, useState, type ChangeEvent } from 'react';
import {
  Avatar,
  Button,
  Input,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import {
  Add20Regular,
  ArrowDownload20Regular,
  ArrowUpload20Regular,
  Chat20Regular,
  Delete20Regular,
  Edit20Regular,
  Search20Regular,
} from '@fluentui/react-icons';
import { can } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { useResponsiveTable } from '../../../components/responsive';
import { useNavigate } from 'react-router';
import { errorCodeOf, toastError } from '../../../api/errors';
import { queryClient, updatePagedItems, usePagedQuery } from '../../../api/query';
import { useRealtimeEvent } from '../../../api/socket';
import { ConfirmationDialog } from '../../../components/confirmation-dialog';
import { RowAction } from '../../../components/row-action';
import { ListBody } from '../../../components/list-body';
import { PageContainer, PageContent } from '../../../components/page-container';
import { PageHeader } from '../../../components/page-header';
import { toast } from '../../../components/toasts';
import { useDebouncedValue } from '../../../hooks/use-debounced-value';
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
import { removeRow } from '../../../hooks/remove-row';

const useStyles = makeStyles({
  scroller: { height: '100%', overflow: 'auto' },
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
  const narrow = useResponsiveTable();
  const { t } = useTranslation('contacts');
  const { t: tc } = useTranslation();
  const user = useCurrentUser();
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim().toLowerCase());
  const { items, hasMore, isLoading, isFetching, loadMore } = usePagedQuery<Contact>(
    [...CONTACTS_KEY, { searchParam }],
    (page) => contactsApi.page(searchParam, page),
  );
  const [editing, setEditing] = useState<Contact | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Contact | null>(null);
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

  const onScroll = (e: React.UIEvent<HTMLDivElement>) => {
    const el = e.currentTarget;
    if (hasMore && el.scrollHeight - (el.scrollTop + el.clientHeight) < 100) void loadMore();
  };

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

  const remove = (contact: Contact) => removeRow(() => contactsApi.remove(contact.id), CONTACTS_KEY, t('toasts.deleted'));

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

  return (
    <PageContainer>
      <PageHeader
        title={t('title')}
        actions={
          <>
            <Input
              contentBefore={<Search20Regular />}
              placeholder={t('search')}
              aria-label={t('search')}
              value={search}
              data-testid="contacts-search"
              onChange={(_, d) => setSearch(d.value)}
            />
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
            <Button appearance="primary" icon={<Add20Regular />} data-testid="contacts-add" onClick={() => setEditing('new')}>
              {t('add')}
            </Button>
          </>
        }
      />
      <PageContent>
        <div className={styles.scroller} onScroll={onScroll} data-testid="contacts-scroller">
          <ListBody loading={isLoading} empty={items.length === 0} emptyTitle={t('empty')}>
            <Table aria-label={t('title')}>
              <TableHeader>
                <TableRow>
                  <TableHeaderCell style={{ width: 56 }} className={narrow.secondary} />
                  <TableHeaderCell>{t('columns.name')}</TableHeaderCell>
                  <TableHeaderCell>{t('columns.number')}</TableHeaderCell>
                  <TableHeaderCell className={narrow.secondary}>{t('columns.email')}</TableHeaderCell>
                  <TableHeaderCell style={{ width: 140 }}>{t('columns.actions')}</TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {items.map((c) => (
                  <TableRow key={c.id} data-testid={`contact-row-${c.id}`}>
                    <TableCell className={narrow.secondary}>
                      <Avatar name={c.name} image={c.profilePicUrl ? { src: c.profilePicUrl } : undefined} size={32} />
                    </TableCell>
                    <TableCell>{c.name}</TableCell>
                    <TableCell>{c.number}</TableCell>
                    <TableCell className={narrow.secondary}>{c.email}</TableCell>
                    <TableCell>
                      <div className={styles.actions}>
                        <RowAction label={t('actions.startTicket')} icon={<Chat20Regular />} onClick={() => void startTicket(c)} />
                        <RowAction label={t('actions.edit')} icon={<Edit20Regular />} onClick={() => setEditing(c)} />
                        {canDelete ? (
                          <RowAction label={t('actions.delete')} icon={<Delete20Regular />} onClick={() => setDeleting(c)} />
                        ) : null}
                      </div>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </ListBody>
          {hasMore ? (
            <div className={styles.more}>
              <Button appearance="subtle" disabled={isFetching} onClick={() => void loadMore()}>
                {tc('actions.loadMore')}
              </Button>
            </div>
          ) : null}
        </div>
      </PageContent>
      {editing ? (
        <ContactModal key={editing === 'new' ? 'new' : editing.id} contact={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />
      ) : null}
      {importResult ? <ImportResultDialog result={importResult} onClose={() => setImportResult(null)} /> : null}
      <ConfirmationDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t('confirmDelete.title', { name: deleting?.name ?? '' })}
        confirmLabel={tc('actions.delete')}
        destructive
        onConfirm={() => (deleting ? remove(deleting) : undefined)}
      >
        {t('confirmDelete.body')}
      </ConfirmationDialog>
    </PageContainer>
  );
}
