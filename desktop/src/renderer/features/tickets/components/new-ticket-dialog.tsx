import { useEffect, useState } from 'react';
import {
  Button,
  Combobox,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Dropdown,
  Field,
  MessageBar,
  MessageBarBody,
  Option,
} from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { errorCodeOf, toastError } from '../../../api/errors';
import { queryClient, useQuery } from '../../../api/query';
import { toast } from '../../../components/toasts';
import { useDebouncedValue } from '../../../hooks/use-debounced-value';
import { useCurrentUser, useIsAdmin } from '../../../stores/auth-store';
import { isAxiosError } from 'axios';
import { createTicket, fetchConnections, fetchQueues, searchContacts } from '../api/tickets';
import type { ContactDetail } from '../api/types';

const CONTACT_MIN_CHARS = 3;

/** The body of ERR_OTHER_OPEN_TICKET: the contact's ticket that is already open or pending. */
interface OtherOpenTicket {
  ticket?: { id: number; uuid?: string; userId?: number | null; user?: { name: string } | null; queue?: { name: string } | null };
}

/** New ticket: contact autocomplete (from 3 characters), queue (required for non-admins), connection → POST /tickets. */
export function NewTicketDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation('tickets');
  const { t: tc } = useTranslation();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const isAdmin = useIsAdmin();
  const [term, setTerm] = useState('');
  const [contact, setContact] = useState<ContactDetail | null>(null);
  const [queueId, setQueueId] = useState<number | null>(null);
  // The user's own connection is the default choice.
  const [whatsappId, setWhatsappId] = useState<number | null>(user?.whatsappId ?? null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  const search = useDebouncedValue(term.trim(), 500);
  const contacts = useQuery(['contacts', 'search', search], () => searchContacts(search), {
    enabled: open && search.length >= CONTACT_MIN_CHARS,
  });
  const allQueues = useQuery(['queues'], fetchQueues, { enabled: open && isAdmin, staleTime: 60_000, silent: true });
  useEffect(() => {
    if (open && allQueues.status === 'error') toast.error(t('newTicket.searchQueueError'));
  }, [open, allQueues.status, t]);
  const queues = isAdmin ? (allQueues.data ?? []) : (user?.queues ?? []);
  const connections = useQuery(['connections', 'list'], fetchConnections, { enabled: open, staleTime: 30_000 });

  const reset = () => {
    setTerm('');
    setContact(null);
    setQueueId(null);
    setWhatsappId(user?.whatsappId ?? null);
    setErrors({});
    setNotice('');
  };
  const close = () => {
    reset();
    onOpenChange(false);
  };

  const submit = async () => {
    const next: Record<string, string> = {};
    if (!contact) next.contact = t('validation.contactRequired');
    if (!isAdmin && !queueId) next.queue = t('validation.queueRequired');
    setErrors(next);
    if (Object.keys(next).length > 0 || !contact) return;
    setBusy(true);
    setNotice('');
    try {
      const ticket = await createTicket({ contactId: contact.id, queueId, whatsappId, userId: user?.id, status: 'open' });
      void queryClient.invalidateQueries({ queryKey: ['tickets'] });
      close();
      void navigate(`/tickets/${ticket.uuid}`);
    } catch (err) {
      toastError(err);
      const other = errorCodeOf(err) === 'ERR_OTHER_OPEN_TICKET' && isAxiosError(err) ? (err.response?.data as OtherOpenTicket).ticket : undefined;
      if (other && other.userId === user?.id && other.uuid) {
        // The contact's open ticket is the user's own: it opens instead.
        void queryClient.invalidateQueries({ queryKey: ['tickets'] });
        close();
        void navigate(`/tickets/${other.uuid}`);
      } else if (other) {
        const queue = other.queue?.name ?? t('filters.noQueue');
        setNotice(
          other.user
            ? t('notices.otherOpen', { id: other.id, user: other.user.name, queue })
            : t('notices.otherOpenNoUser', { id: other.id, queue }),
        );
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={(_, d) => (d.open ? onOpenChange(true) : close())}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{t('newTicket.title')}</DialogTitle>
          <DialogContent style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
            {notice ? (
              <MessageBar intent="warning" data-testid="other-open-notice">
                <MessageBarBody>{notice}</MessageBarBody>
              </MessageBar>
            ) : null}
            <Field label={t('newTicket.contact')} hint={t('newTicket.contactHint')} validationMessage={errors.contact} required>
              <Combobox
                freeform
                data-testid="new-ticket-contact"
                value={contact && term === contact.name ? contact.name : term}
                onChange={(e) => {
                  setTerm(e.target.value);
                  setContact(null);
                }}
                onOptionSelect={(_, d) => {
                  const found = (contacts.data ?? []).find((c) => String(c.id) === d.optionValue);
                  if (found) {
                    setContact(found);
                    setTerm(found.name);
                  }
                }}
              >
                {search.length >= CONTACT_MIN_CHARS
                  ? (contacts.data ?? []).map((c) => (
                      <Option key={c.id} value={String(c.id)} text={c.name}>
                        {c.name} ({c.number})
                      </Option>
                    ))
                  : null}
                {search.length >= CONTACT_MIN_CHARS && contacts.data?.length === 0 ? (
                  <Option key="none" value="" text="" disabled>
                    {t('newTicket.noResults')}
                  </Option>
                ) : null}
              </Combobox>
            </Field>
            <Field label={t('newTicket.queue')} validationMessage={errors.queue} required={!isAdmin}>
              <Dropdown
                data-testid="new-ticket-queue"
                value={queues.find((q) => q.id === queueId)?.name ?? ''}
                selectedOptions={queueId ? [String(queueId)] : []}
                onOptionSelect={(_, d) => setQueueId(d.optionValue ? Number(d.optionValue) : null)}
              >
                {queues.map((q) => (
                  <Option key={q.id} value={String(q.id)}>
                    {q.name}
                  </Option>
                ))}
              </Dropdown>
            </Field>
            <Field label={t('newTicket.connection')}>
              <Dropdown
                data-testid="new-ticket-connection"
                value={(connections.data ?? []).find((c) => c.id === whatsappId)?.name ?? ''}
                selectedOptions={whatsappId ? [String(whatsappId)] : []}
                onOptionSelect={(_, d) => setWhatsappId(d.optionValue ? Number(d.optionValue) : null)}
              >
                {(connections.data ?? []).map((c) => (
                  <Option key={c.id} value={String(c.id)}>
                    {c.name}
                  </Option>
                ))}
              </Dropdown>
            </Field>
          </DialogContent>
          <DialogActions>
            <Button onClick={close} disabled={busy}>
              {tc('actions.cancel')}
            </Button>
            <Button appearance="primary" data-testid="new-ticket-submit" onClick={() => void submit()} disabled={busy}>
              {t('newTicket.create')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
