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
import { queryClient, usePagedQuery } from '../../../api/query';
import { useRealtimeEvent } from '../../../api/socket';
import { ConfirmationDialog } from '../../../components/confirmation-dialog';
import { ListBody } from '../../../components/list-body';
import { PageContainer, PageContent } from '../../../components/page-container';
import { PageHeader } from '../../../components/page-header';
import { RowAction } from '../../../components/row-action';
import { removeRow } from '../../../hooks/remove-row';
import { useDebouncedValue } from '../../../hooks/use-debounced-value';
import { FILES_KEY, filesApi, type FileList } from '../api/files';
import { FileListDialog } from './file-list-dialog';

const useStyles = makeStyles({
  scroller: { height: '100%', overflow: 'auto' },
  cell: { minWidth: 0, overflow: 'hidden' },
  name: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, minWidth: 0 },
  text: { fontWeight: tokens.fontWeightSemibold, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  preview: {
    display: 'block',
    color: tokens.colorNeutralForeground3,
    fontSize: tokens.fontSizeBase200,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  },
  search: { minWidth: '0', maxWidth: '240px' },
});

/** /files (spec 02 "Files page", admins): search, add, and a table of the company's file lists with edit and delete. */
export default function FilesPage() {
  const styles = useStyles();
  const { t } = useTranslation('files');
  const { t: tc } = useTranslation();
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim());
  const { items, hasMore, isLoading, loadMore } = usePagedQuery<FileList>([...FILES_KEY, 'page', { searchParam }], (page) =>
    filesApi.page(searchParam, page),
  );
  const [editing, setEditing] = useState<FileList | 'new' | null>(null);
  const [deleting, setDeleting] = useState<FileList | null>(null);
  // A colleague (or another tab) changed a list: read the lists again.
  useRealtimeEvent('file', () => void queryClient.invalidateQueries({ queryKey: FILES_KEY }));

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
              data-testid="files-search"
              onChange={(_, d) => setSearch(d.value)}
            />
            <Button appearance="primary" icon={<Add20Regular />} data-testid="files-add" onClick={() => setEditing('new')}>
              {t('add')}
            </Button>
          </>
        }
      />
      <PageContent>
        <div className={styles.scroller} onScroll={onScroll} data-testid="files-scroller">
          <ListBody loading={isLoading} empty={items.length === 0} emptyTitle={t('empty')}>
            <Table aria-label={t('title')} style={{ tableLayout: 'fixed' }}>
              <TableHeader>
                <TableRow>
                  <TableHeaderCell>{t('columns.name')}</TableHeaderCell>
                  <TableHeaderCell style={{ width: 96 }}>{t('columns.actions')}</TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {items.map((list) => (
                  <TableRow key={list.id} data-testid={`file-list-row-${list.id}`}>
                    <TableCell className={styles.cell}>
                      <div className={styles.cell}>
                        <span className={styles.name}>
                          <span className={styles.text} data-testid={`file-list-name-${list.id}`}>
                            {list.name}
                          </span>
                          <Badge appearance="tint" size="small" data-testid={`file-list-count-${list.id}`}>
                            {t('fileCount', { count: list.options.filter((o) => o.path).length })}
                          </Badge>
                        </span>
                        <span className={styles.preview} title={list.message}>
                          {list.message}
                        </span>
                      </div>
                    </TableCell>
                    <TableCell>
                      <RowAction label={tc('actions.edit')} icon={<Edit20Regular />} testId={`file-list-edit-${list.id}`} onClick={() => setEditing(list)} />
                      <RowAction label={tc('actions.delete')} icon={<Delete20Regular />} testId={`file-list-delete-${list.id}`} onClick={() => setDeleting(list)} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </ListBody>
        </div>
      </PageContent>
      {editing ? (
        <FileListDialog key={editing === 'new' ? 'new' : editing.id} fileList={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />
      ) : null}
      <ConfirmationDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t('confirmDelete.title', { name: deleting?.name ?? '' })}
        confirmLabel={tc('actions.delete')}
        destructive
        onConfirm={() => (deleting ? removeRow(() => filesApi.remove(deleting.id), FILES_KEY, t('toasts.deleted')) : undefined)}
      >
        {t('confirmDelete.body')}
      </ConfirmationDialog>
    </PageContainer>
  );
}
