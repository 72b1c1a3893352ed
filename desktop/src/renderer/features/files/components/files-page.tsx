import { Badge, makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { CrudListPage, type Column } from '../../../components/list-kit';
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
    <CrudListPage<FileList>
      namespace="files"
      queryKey={[...FILES_KEY, 'page']}
      listKey={FILES_KEY}
      api={filesApi}
      testIds={{ page: 'files', row: 'file-list' }}
      columns={columns}
      // A colleague (or another tab) changed a list: read the lists again.
      realtime={{ resource: 'file' }}
      deleteTitleValues={(fileList) => ({ name: fileList.name })}
      dialog={({ item, onClose }) => <FileListDialog fileList={item} onClose={onClose} />}
    />
  );
}
