import { Badge } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { CrudListPage, RecordCell, type Column } from '../../../components/list-kit';
import { FILES_KEY, filesApi, type FileList } from '../api/files';
import { FileListDialog } from './file-list-dialog';

/** /files (spec 02 "Files page", admins): search, add, and the company's file lists with edit and delete. */
export default function FilesPage() {
  const { t } = useTranslation('files');

  const columns: Column<FileList>[] = [
    {
      id: 'name',
      header: t('columns.name'),
      cell: (fileList) => (
        <RecordCell
          name={fileList.name}
          nameTestId={`file-list-name-${fileList.id}`}
          badges={
            <Badge appearance="tint" size="small" data-testid={`file-list-count-${fileList.id}`}>
              {t('fileCount', { count: fileList.options.filter((o) => o.path).length })}
            </Badge>
          }
          preview={fileList.message}
        />
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
