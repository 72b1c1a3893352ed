/**
 * The kit of the list-and-dialog pages (tags, users, files, quick messages...): a header with search
 * (500 ms debounce) and add button, an infinitely scrolling body (next page within 100 px of the bottom)
 * with the empty state, a table with row actions, a form dialog validated by the shared zod schema, and the
 * delete confirmation. Data comes from `usePagedQuery` (api/query.ts).
 *
 * A page of records to search, add, edit and delete is a `CrudListPage`: it declares its columns, its
 * dialog (a `FormDialog` that usually saves with `saveRecord`), its i18n namespace and who may do what,
 * and the kit does the rest. See
 * crud-list-page.tsx for the props and an example, tags-page.tsx for a page. The pieces below stay for
 * pages of another shape (a calendar, a list without search).
 */
export {
  CrudListPage,
  mergeRecordEvent,
  type Allowed,
  type CrudDialogProps,
  type CrudListApi,
  type CrudListPageProps,
  type CrudListRealtime,
  type RowId,
} from './crud-list-page';
export { DataTable, type Column, type DataTableProps } from './data-table';
export { DeleteDialog, type DeleteDialogProps } from './delete-dialog';
export { FormDialog, type FormDialogProps, type FormState } from './form-dialog';
export { InfiniteList, LOAD_MORE_THRESHOLD_PX, nearBottom, useInfiniteScroll, type InfiniteListProps } from './infinite-list';
export { ListHeader, type ListHeaderProps } from './list-header';
export { RecordCell, type RecordCellProps } from './record-cell';
export { saveRecord, type SaveRecordApi } from './save-record';
export { EditDeleteActions, type EditDeleteActionsProps } from './row-actions';
export { SearchBox, useSearch, type SearchBoxProps } from './search-box';
export { useListDialogs } from './use-list-dialogs';
export { EmptyState } from '../empty-state';
