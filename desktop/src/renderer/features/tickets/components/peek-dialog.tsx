import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import type { Ticket } from '../api/types';
import { useMessages } from '../hooks/use-messages';
import { MessageList } from './message-list';

/** Admins' read-only look at a ticket's messages. */
export function PeekDialog({ ticket, onClose }: { ticket: Ticket; onClose: () => void }) {
  const { t } = useTranslation('tickets');
  const { t: tc } = useTranslation();
  const messages = useMessages(ticket.id);
  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface style={{ maxWidth: 720, width: '90vw' }}>
        <DialogBody>
          <DialogTitle>{t('conversation.peekTitle', { id: ticket.id })} · {ticket.contact?.name}</DialogTitle>
          <DialogContent style={{ height: '60vh', display: 'flex', flexDirection: 'column' }} data-testid="peek-dialog">
            <MessageList
              messages={messages.items}
              hasMore={messages.hasMore}
              loading={messages.isLoading}
              loadOlder={messages.loadOlder}
              isGroup={ticket.isGroup}
              readOnly
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{tc('actions.close')}</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
