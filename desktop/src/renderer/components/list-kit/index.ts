/**
 * The kit of the list-and-dialog pages (tags, users, files, quick messages...): a header with search
 * (500 ms debounce) and add button, an infinitely scrolling body (next page within 100 px of the bottom)
 * with the empty state, a table with row actions, a form dialog validated by the shared zod schema, and the
 * delete confirmation. Data comes from `usePagedQuery` (api/query.ts). See tags-page.tsx for a page.
 */
export { DataTable, type Column, type DataTableProps } from './data-table';
export { DeleteDialog, type DeleteDialogProps } from './delete-dialog';
export { FormDialog, type FormDialogProps, type FormState } from './form-dialog';
export { InfiniteList, LOAD_MORE_THRESHOLD_PX, nearBottom, useInfiniteScroll, type InfiniteListProps } from './infinite-list';
export { ListHeader, type ListHeaderProps } from './list-header';
export { EditDeleteActions, type EditDeleteActionsProps } from './row-actions';
export { SearchBox, useSearch, type SearchBoxProps } from './search-box';
export { useListDialogs } from './use-list-dialogs';
export { EmptyState } from '../empty-state';
