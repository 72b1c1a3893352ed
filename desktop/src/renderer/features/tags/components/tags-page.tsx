import { useState } from 'react';
import {
  Badge,
  Button,
  Input,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { Add20Regular, Delete20Regular, Edit20Regular, Search20Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { usePagedQuery } from '../../../api/query';
import { ConfirmationDialog } from '../../../components/confirmation-dialog';
import { ListBody } from '../../../components/list-body';
import { PageContainer, PageContent } from '../../../components/page-container';
import { PageHeader } from '../../../components/page-header';
import { RowAction } from '../../../components/row-action';
import { removeRow } from '../../../hooks/remove-row';
import { useDebouncedValue } from '../../../hooks/use-debounced-value';
import { useCurrentUser } from '../../../stores/auth-store';
import { TAGS_KEY, tagsApi, type Tag } from '../api/tags';
import { TagModal } from './tag-modal';

const useStyles = makeStyles({
  scroller: { height: '100%', overflow: 'auto' },
  chip: {
    display: 'inline-block',
    maxWidth: '100%',
    padding: `2px ${tokens.spacingHorizontalS}`,
    borderRadius: tokens.borderRadiusCircular,
    fontWeight: tokens.fontWeightSemibold,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    verticalAlign: 'middle',
  },
  name: { display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: tokens.spacingHorizontalXS, minWidth: 0, paddingBlock: '4px' },
  search: { minWidth: '0', maxWidth: '220px' },
});

/** Dark text on light tag colours (the default #A4CCCC), white on dark ones. */
export const chipTextColor = (color: string): string => {
  const hex = /^#([0-9a-f]{6}|[0-9a-f]{3})$/i.exec(color.trim())?.[1];
  if (!hex) return '#fff';
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.4 ? '#1b1b1b' : '#fff';
};

/** /tags: the company's tags with how many tickets carry each (spec 02 section 2). */
export default function TagsPage() {
  const styles = useStyles();
  const { t } = useTranslation('tags');
  const { t: tc } = useTranslation();
  const user = useCurrentUser();
  const isAdmin = user?.profile === 'admin' || !!user?.super;
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim());
  const { items, hasMore, isLoading, loadMore } = usePagedQuery<Tag>([...TAGS_KEY, 'page', { searchParam }], (page) =>
    tagsApi.page(searchParam, page),
  );
  const [editing, setEditing] = useState<Tag | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Tag | null>(null);

  const onScroll = (e: React.UIEvent<HTMLDivElement>) => {
    const el = e.currentTarget;
    if (hasMore && el.scrollHeight - (el.scrollTop + el.clientHeight) < 100) void loadMore();
  };

  return (
    <PageContainer>
      <PageHeader
        title={t('title')}
        actions={
          <>
            <Input
              className={styles.search}
              contentBefore={<Search20Regular />}
              placeholder={t('search')}
              aria-label={t('search')}
              value={search}
              data-testid="tags-search"
              onChange={(_, d) => setSearch(d.value)}
            />
            <Button appearance="primary" icon={<Add20Regular />} data-testid="tags-add" onClick={() => setEditing('new')}>
              {t('add')}
            </Button>
          </>
        }
      />
      <PageContent>
        <div className={styles.scroller} onScroll={onScroll} data-testid="tags-scroller">
          <ListBody loading={isLoading} empty={items.length === 0} emptyTitle={t('empty')}>
            <Table aria-label={t('title')} style={{ tableLayout: 'fixed' }}>
              <TableHeader>
                <TableRow>
                  <TableHeaderCell>{t('columns.name')}</TableHeaderCell>
                  <TableHeaderCell style={{ width: 76 }}>{t('columns.tickets')}</TableHeaderCell>
                  <TableHeaderCell style={{ width: 88 }}>{t('columns.actions')}</TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {items.map((tag) => (
                  <TableRow key={tag.id} data-testid={`tag-row-${tag.id}`}>
                    <TableCell>
                      <span className={styles.name}>
                        <span className={styles.chip} style={{ backgroundColor: tag.color, color: chipTextColor(tag.color) }} data-testid={`tag-chip-${tag.id}`}>
                          {tag.name}
                        </span>
                        {tag.kanban === 1 ? (
                          <Badge appearance="outline" size="small" data-testid={`tag-kanban-${tag.id}`}>
                            {t('kanbanBadge')}
                          </Badge>
                        ) : null}
                      </span>
                    </TableCell>
                    <TableCell data-testid={`tag-count-${tag.id}`}>{tag.ticketsCount ?? 0}</TableCell>
                    <TableCell>
                      {/* Only admins may change a tag (PUT /tags/{id}); anyone may delete one. */}
                      {isAdmin ? (
                        <RowAction label={tc('actions.edit')} icon={<Edit20Regular />} testId={`tag-edit-${tag.id}`} onClick={() => setEditing(tag)} />
                      ) : null}
                      <RowAction label={tc('actions.delete')} icon={<Delete20Regular />} testId={`tag-delete-${tag.id}`} onClick={() => setDeleting(tag)} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </ListBody>
        </div>
      </PageContent>
      {editing ? (
        <TagModal
          key={editing === 'new' ? 'new' : editing.id}
          tag={editing === 'new' ? undefined : editing}
          canSetKanban={isAdmin}
          onClose={() => setEditing(null)}
        />
      ) : null}
      <ConfirmationDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t('confirmDelete.title', { name: deleting?.name ?? '' })}
        confirmLabel={tc('actions.delete')}
        destructive
        onConfirm={() => (deleting ? removeRow(() => tagsApi.remove(deleting.id), TAGS_KEY, t('toasts.deleted')) : undefined)}
      >
        {t('confirmDelete.body')}
      </ConfirmationDialog>
    </PageContainer>
  );
}
