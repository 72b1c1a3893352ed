import { Badge, makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { queryClient, usePagedQuery } from '../../../api/query';
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
import { FILES_KEY, filesApi, type FileList } from '../api/files';
import { FileListDialog } from './file-list-dialog';

const useStyles = makeStyles({
  cell: { minWidth: 0, overflow: 'hidden', paddingBlock: '4px' },
  name: { display: 'flex', alignItems: 'center', flexWrap: 'wrap', columnGap: tokens.spacingHorizontalS, rowGap: '2px', minWidth: 0 },
  text: { fontWeight: tokens.fontWeightSemibold, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', maxWidth: '100%' },
  badge: { flexShrink: 0 },
  preview: {
    display: 'block',
    color: tokens.colorNeutralForeground3,
    fontSize: tokens.fontSizeBase200,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  },
});

/** /files (spec 02 "Files page", admins): search, add, and the company's file lists with edit and delete. */
export default function FilesPage() {
  const styles = useStyles();
  const { t } = useTranslation('files');
  const { search, setSearch, searchParam } = useSearch();
  const list = usePagedQuery<FileList>([...FILES_KEY, 'page', { searchParam }], (page) => filesApi.page(searchParam, page));
  const dialogs = useListDialogs<FileList>();
  // A colleague (or another tab) changed a list: read the lists again.
  useRealtimeEvent('file', () => void queryClient.invalidateQueries({ queryKey: FILES_KEY }));

  const columns: Column<FileList>[] = [
    {
      id: 'name',
      header: t('columns.name'),
      cell: (fileList) => (
        <div className={styles.cell}>
          <span className={styles.name}>
            <span className={styles.text} data-testid={`file-list-name-${fileList.id}`}>
              {fileList.name}
            </span>
            <Badge className={styles.badge} appearance="tint" size="small" data-testid={`file-list-count-${fileList.id}`}>
              {t('fileCount', { count: fileList.options.filter((o) => o.path).length })}
            </Badge>
          </span>
          <span className={styles.preview} title={fileList.message}>
            {fileList.message}
          </span>
        </div>
      ),
    },
  ];

  return (
    <PageContainer>
      <ListHeader
        title={t('title')}
        search={{ value: search, onChange: setSearch, label: t('search'), testId: 'files-search' }}
        add={{ label: t('add'), onClick: dialogs.openAdd, testId: 'files-add' }}
      />
      <PageContent>
        <InfiniteList
          list={list}
          emptyTitle={t('empty')}
          testId="files-scroller"
        >
          <DataTable
            label={t('title')}
            rows={list.items}
            columns={columns}
            rowKey={(fileList) => fileList.id}
            rowTestId={(fileList) => `file-list-row-${fileList.id}`}
            actionsHeader={t('columns.actions')}
            actions={(fileList) => (
              <EditDeleteActions testIdPrefix="file-list" id={fileList.id} onEdit={() => dialogs.openEdit(fileList)} onDelete={() => dialogs.askDelete(fileList)} />
            )}
          />
        </InfiniteList>
      </PageContent>
      {dialogs.editing ? <FileListDialog key={dialogs.edited?.id ?? 'new'} fileList={dialogs.edited} onClose={dialogs.closeForm} /> : null}
      <DeleteDialog
        item={dialogs.deleting}
        onClose={dialogs.closeDelete}
        title={(fileList) => t('confirmDelete.title', { name: fileList.name })}
        body={t('confirmDelete.body')}
        remove={(fileList) => filesApi.remove(fileList.id)}
        listKey={FILES_KEY}
        deletedMessage={t('toasts.deleted')}
      />
    </PageContainer>
  );
}
