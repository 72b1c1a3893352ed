import { useMemo, useState } from 'react';
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
  Option,
} from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toastError } from '../../../api/errors';
import { queryClient, useQuery } from '../../../api/query';
import { toast } from '../../../components/toasts';
import { useDebouncedValue } from '../../../hooks/use-debounced-value';
import { fetchConnections, fetchQueues, fetchUsers, updateTicket } from '../api/tickets';
import type { Ticket } from '../api/types';

const USER_MIN_CHARS = 3;

/**
 * Transfer: queue required (with a user chosen, one of that user's), optional user (search from 3 characters
 * after 500 ms), connection required → PUT /tickets/{id}, confirmed by a toast.
 */
export function TransferDialog({ ticket, open, onOpenChange }: { ticket: Ticket; open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation('tickets');
  const { t: tc } = useTranslation();
  const navigate = useNavigate();
  const [queueId, setQueueId] = useState<number | null>(ticket.queueId);
  const [whatsappId, setWhatsappId] = useState<number | null>(ticket.whatsappId);
  const [userId, setUserId] = useState<number | null>(null);
  const [term, setTerm] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const search = useDebouncedValue(term.trim(), 500);
  const queues = useQuery(['queues'], fetchQueues, { enabled: open, staleTime: 60_000 });
  const connections = useQuery(['connections', 'list'], fetchConnections, { enabled: open, staleTime: 30_000 });
  const users = useQuery(['users', 'list'], fetchUsers, { enabled: open && search.length >= USER_MIN_CHARS, staleTime: 30_000 });
  const chosenUser = useMemo(() => (users.data ?? []).find((u) => u.id === userId) ?? null, [users.data, userId]);
  /**
   * The queues the ticket may go to: with a user chosen, that user's queues only (an admin sees every
   * queue), or the ticket would land where its new owner cannot see it.
   */
  const queueOptions = useMemo(() => {
    const all = queues.data ?? [];
    if (!chosenUser || chosenUser.profile === 'admin') return all;
    const theirs = new Set((chosenUser.queues ?? []).map((q) => q.id));
    return all.filter((q) => theirs.has(q.id));
  }, [queues.data, chosenUser]);
  const userOptions = useMemo(() => {
    if (search.length < USER_MIN_CHARS) return [];
    const needle = search.toLowerCase();
    return (users.data ?? []).filter((u) => u.name.toLowerCase().includes(needle));
  }, [users.data, search]);

  const submit = async () => {
    const next: Record<string, string> = {};
    if (!queueId) next.queue = t('validation.queueRequired');
    if (!whatsappId) next.connection = t('validation.connectionRequired');
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    setBusy(true);
    try {
      // Without a user the ticket waits in the queue.
      await updateTicket(ticket.id, userId ? { queueId, whatsappId, userId, status: 'open' } : { queueId, whatsappId, userId: null, status: 'pending' });
      void queryClient.invalidateQueries({ queryKey: ['tickets'] });
      toast.success(chosenUser ? t('transfer.doneToUser', { name: chosenUser.name }) : t('transfer.doneToQueue', { queue: queueOptions.find((q) => q.id === queueId)?.name ?? '' }));
      onOpenChange(false);
      void navigate('/tickets');
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={(_, d) => onOpenChange(d.open)}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{t('transfer.title')}</DialogTitle>
          <DialogContent style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
            <Field label={t('transfer.user')} hint={t('transfer.userHint')}>
              <Combobox
                freeform
                data-testid="transfer-user"
                value={term}
                onChange={(e) => {
                  setTerm(e.target.value);
                  setUserId(null);
                }}
                onOptionSelect={(_, d) => {
                  const found = userOptions.find((u) => String(u.id) === d.optionValue);
                  setUserId(found?.id ?? null);
                  if (found) {
                    setTerm(found.name);
                    // A queue the new owner does not have is dropped; their only queue is chosen for them.
                    if (found.profile !== 'admin') {
                      const theirs = (found.queues ?? []).map((q) => q.id);
                      if (!queueId || !theirs.includes(queueId)) setQueueId(theirs.length === 1 ? theirs[0] : null);
                    }
                  }
                }}
              >
                {userOptions.map((u) => (
                  <Option key={u.id} value={String(u.id)} text={u.name}>
                    {u.name}
                  </Option>
                ))}
              </Combobox>
            </Field>
            <Field
              label={t('transfer.queue')}
              validationMessage={errors.queue}
              hint={!errors.queue && chosenUser && queueOptions.length === 0 ? t('transfer.userHasNoQueues', { name: chosenUser.name }) : undefined}
              required
            >
              <Dropdown
                data-testid="transfer-queue"
                value={queueOptions.find((q) => q.id === queueId)?.name ?? ''}
                selectedOptions={queueId ? [String(queueId)] : []}
                onOptionSelect={(_, d) => setQueueId(d.optionValue ? Number(d.optionValue) : null)}
              >
                {queueOptions.map((q) => (
                  <Option key={q.id} value={String(q.id)}>
                    {q.name}
                  </Option>
                ))}
              </Dropdown>
            </Field>
            <Field label={t('transfer.connection')} validationMessage={errors.connection} required>
              <Dropdown
                data-testid="transfer-connection"
                value={(connections.data ?? []).find((c) => c.id === whatsappId)?.name ?? ticket.whatsapp?.name ?? ''}
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
            <Button onClick={() => onOpenChange(false)} disabled={busy}>
              {tc('actions.cancel')}
            </Button>
            <Button appearance="primary" data-testid="transfer-submit" onClick={() => void submit()} disabled={busy}>
              {t('transfer.submit')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
