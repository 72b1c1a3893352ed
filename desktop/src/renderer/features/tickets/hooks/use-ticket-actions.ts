import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { queryClient } from '../../../api/query';
import { toastError } from '../../../api/errors';
import { useCurrentUser } from '../../../stores/auth-store';
import { updateTicket } from '../api/tickets';
import type { Ticket } from '../api/types';
import { useTicketsUi } from '../stores/tickets-store';

/**
 * Accept, close, reopen and return (spec 01 section 4): after accept or reopen the ticket opens, selected in
 * the assigned list; else /tickets.
 */
export function useTicketActions() {
  const navigate = useNavigate();
  const user = useCurrentUser();
  const run = useCallback(
    async (ticket: Ticket, body: Record<string, unknown>, openAfter: boolean) => {
      try {
        const updated = await updateTicket(ticket.id, body);
        queryClient.setQueryData(['ticket', ticket.uuid], updated);
        void queryClient.invalidateQueries({ queryKey: ['tickets'] });
        // The ticket is the user's now: the list shows the assigned tab, the ticket selected in it.
        if (openAfter) useTicketsUi.getState().showAssigned();
        void navigate(openAfter ? `/tickets/${ticket.uuid}` : '/tickets');
      } catch (err) {
        toastError(err);
      }
    },
    [navigate],
  );
  return {
    accept: (ticket: Ticket) => run(ticket, { status: 'open', userId: user?.id }, true),
    reopen: (ticket: Ticket) => run(ticket, { status: 'open', userId: user?.id }, true),
    // Closing also switches off the ticket's bot, prompt and integration (spec 01 section 4).
    close: (ticket: Ticket) =>
      run(ticket, { status: 'closed', userId: user?.id, useIntegration: false, promptId: null, integrationId: null }, false),
    giveBack: (ticket: Ticket) => run(ticket, { status: 'pending', userId: null }, false),
  };
}
