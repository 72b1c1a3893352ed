import type { TFunction } from 'i18next';
import type { TicketLog } from '../api/types';

/** Who acted, as the sentence names them: a user by name, the automation by what it is. */
const actorName = (t: TFunction, log: TicketLog): string =>
  log.actor.kind === 'user' ? (log.actor.name ?? t('activity.actor.deletedUser')) : t(`activity.actor.${log.actor.kind}`);

const named = (t: TFunction, ref: { name: string | null } | null, fallback: string) => (ref ? (ref.name ?? t(fallback)) : null);

/**
 * One line of the activity trail in the user's language: "Transferred by Admin to Ana · Suporte",
 * "Accepted by Ana", "Moved to Vendas by the chatbot", "Closed by Ana".
 */
export const activityText = (t: TFunction, log: TicketLog): string => {
  const actor = actorName(t, log);
  const queue = named(t, log.toQueue, 'activity.deletedQueue');
  const user = named(t, log.toUser, 'activity.deletedUser');
  switch (log.action) {
    case 'created':
      return t('activity.created', { actor });
    case 'accepted':
      return t('activity.accepted', { actor });
    case 'returned':
      return queue ? t('activity.returnedToQueue', { actor, queue }) : t('activity.returned', { actor });
    case 'transferred': {
      const target = [user, queue].filter(Boolean).join(' · ');
      return target ? t('activity.transferred', { actor, target }) : t('activity.transferredNoQueue', { actor });
    }
    case 'queued':
      return queue ? t('activity.queued', { actor, queue }) : t('activity.unqueued', { actor });
    case 'closed':
      return t('activity.closed', { actor });
    case 'reopened':
      return t('activity.reopened', { actor });
    default:
      return '';
  }
};
