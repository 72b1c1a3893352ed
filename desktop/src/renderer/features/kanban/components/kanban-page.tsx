import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { makeStyles, MessageBar, MessageBarBody, Spinner, Switch, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { TicketView } from '@atrium/shared';
import { usePlanFlags } from '../../../api/company';
import { PageContainer } from '../../../components/page-container';
import { PageHeader } from '../../../components/page-header';
import { toast } from '../../../components/toasts';
import { useIsAdmin } from '../../../stores/auth-store';
import type { BoardFilters } from '../api/kanban';
import { useKanbanBoard } from '../hooks/use-kanban-board';
import { KanbanBoard } from './kanban-board';

const useStyles = makeStyles({
  body: { display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0, gap: tokens.spacingVerticalS },
  loading: { flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center' },
});

/**
 * /kanban (spec 02 sections 2 and 4): a lane for tickets without a kanban tag and one per kanban tag; a
 * card dragged to another lane changes its tag. Only with the plan's kanban (the server refuses otherwise).
 */
export default function KanbanPage() {
  const styles = useStyles();
  const { t } = useTranslation('kanban');
  const navigate = useNavigate();
  const isAdmin = useIsAdmin();
  const plan = usePlanFlags();
  const allowed = plan?.useKanban !== false;
  const [showAll, setShowAll] = useState(false);
  const filters = useMemo<BoardFilters>(() => ({ showAll: isAdmin && showAll }), [isAdmin, showAll]);
  const { board, isLoading, loadMore, loadingLanes, move, reorder } = useKanbanBoard(filters, allowed && plan !== null);

  // The route holds the plan's line too: a company without the kanban is sent home (spec 02 section 8).
  const redirected = useRef(false);
  useEffect(() => {
    if (allowed || redirected.current) return;
    redirected.current = true;
    toast.error(t('planDisabled'));
    const timer = setTimeout(() => void navigate('/', { replace: true }), 1000);
    return () => clearTimeout(timer);
  }, [allowed, navigate, t]);

  const open = useCallback((ticket: TicketView) => void navigate(`/tickets/${ticket.uuid}`), [navigate]);
  const onMove = useCallback((ticketId: number, tagId: number | null) => void move(ticketId, tagId), [move]);
  const onReorder = useCallback((tagIds: number[]) => void reorder(tagIds), [reorder]);
  const onLoadMore = useCallback((tagId: number | null) => void loadMore(tagId), [loadMore]);

  return (
    <PageContainer>
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        actions={
          isAdmin ? (
            <Switch label={t('showAll')} checked={showAll} onChange={(_, data) => setShowAll(data.checked)} data-testid="kanban-show-all" />
          ) : undefined
        }
      />
      {!allowed ? (
        <MessageBar intent="warning">
          <MessageBarBody>{t('planDisabled')}</MessageBarBody>
        </MessageBar>
      ) : (
        <div className={styles.body}>
          {board && board.lanes.length === 1 ? (
            <MessageBar intent="info">
              <MessageBarBody>{t('noLanes')}</MessageBarBody>
            </MessageBar>
          ) : null}
          {isLoading || !board ? (
            <div className={styles.loading}>
              <Spinner label={t('loading')} />
            </div>
          ) : (
            <KanbanBoard
              board={board}
              canReorder={isAdmin}
              loadingLanes={loadingLanes}
              onLoadMore={onLoadMore}
              onMove={onMove}
              onReorder={onReorder}
              onOpen={open}
            />
          )}
        </div>
      )}
    </PageContainer>
  );
}
