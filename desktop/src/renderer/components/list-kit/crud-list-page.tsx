import { Fragment, type ReactNode } from 'react';
import { Button, makeStyles, tokens } from '@fluentui/react-components';
import { companyEvent, type CompanyResource } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { queryClient, updatePagedItems, usePagedQuery, type Page, type QueryKey } from '../../api/query';
import { useRealtimeRawEvent } from '../../api/socket';
import { useAuthStore } from '../../stores/auth-store';
import { PageContainer, PageContent } from '../page-container';
import { DataTable, type Column } from './data-table';
import { DeleteDialog } from './delete-dialog';
import { InfiniteList } from './infinite-list';
import { ListHeader } from './list-header';
import { EditDeleteActions } from './row-actions';
import { useSearch } from './search-box';
import { useListDialogs } from './use-list-dialogs';

export type RowId = number | string;

/** The calls a list page makes: one page of rows for a search term, and the delete. */
export interface CrudListApi<T extends { id: RowId }> {
  page: (searchParam: string, pageNumber: number) => Promise<Page<T>>;
  remove: (id: T['id']) => Promise<unknown>;
}

/** Who may do something: everyone or no one, or row by row. */
export type Allowed<T> = boolean | ((item: T) => boolean);

/** How the list follows a realtime event about its records. */
export interface CrudListRealtime<T, E = unknown> {
  /** The company event `company-{companyId}-{resource}`... */
  resource?: CompanyResource;
  /** ...or a global event name as it is (e.g. ANNOUNCEMENT_EVENT). */
  event?: string;
  /** Patches the loaded rows from the payload, without asking the server (see `mergeRecordEvent`). */
  merge?: (items: T[], payload: E) => T[];
  /** Without `merge`, what the event reloads (a key prefix). Default: the page's `listKey`. */
  reload?: QueryKey;
}

/** The dialog's props: the record to edit (undefined: adding one) and how to close. */
export interface CrudDialogProps<T> {
  item: T | undefined;
  onClose: () => void;
}

export interface CrudListPageProps<T extends { id: RowId }, E = unknown> {
  /**
   * The feature's i18n namespace. It holds `title`, `search`, `add`, `empty`, `columns.actions`,
   * `confirmDelete.title` (with the values of `deleteTitleValues`), `confirmDelete.body` and `toasts.deleted`.
   */
  namespace: string;
  /** Where those keys sit in the namespace, when a feature has two list pages (e.g. 'items'). */
  keyPrefix?: string;
  /** The key of the page's list, without the search term (appended): `[...TAGS_KEY, 'page']`. */
  queryKey: QueryKey;
  /** The prefix of every cached list of these records: a delete reloads it. Default: `queryKey`. */
  listKey?: QueryKey;
  api: CrudListApi<T>;
  columns: Column<T>[];
  /**
   * Test ids: `{page}-search`, `{page}-add`, `{page}-scroller`, and per row `{row}-row-{id}`, `{row}-edit-{id}`,
   * `{row}-delete-{id}`.
   */
  testIds: { page: string; row: string };
  /** The add/edit dialog, mounted afresh for each record; it saves and reloads the list itself. */
  dialog: (props: CrudDialogProps<T>) => ReactNode;
  /** The interpolation values of `confirmDelete.title` for a row, e.g. `(tag) => ({ name: tag.name })`. */
  deleteTitleValues: (item: T) => Record<string, unknown>;
  /** The add button shows (default true). */
  canAdd?: boolean;
  /** A row's edit button shows (default true). */
  canEdit?: Allowed<T>;
  /** A row's delete button shows (default true). */
  canDelete?: Allowed<T>;
  /** Lower-case the search term before it is sent (the users' and contacts' lists). */
  lowerCaseSearch?: boolean;
  /** Follow a realtime event: patch the rows (`merge`) or read the list again. */
  realtime?: CrudListRealtime<T, E>;
  /** The table's layout (see DataTable): 'fixed' to keep the given widths. */
  layout?: 'auto' | 'fixed';
  /** More buttons of a row, before edit and delete (widen `actionsWidth` to fit them). */
  rowActions?: (item: T) => ReactNode;
  actionsWidth?: number;
  /** More header buttons, before the add button. */
  headerExtra?: ReactNode;
  /** A line under the title (which record the list belongs to...). */
  subtitle?: ReactNode;
  /** Shown between the header and the rows (a running import's progress...). */
  banner?: ReactNode;
  /** A "load more" button under the rows, for who does not scroll (keyboard). */
  loadMoreButton?: boolean;
  /** More of the page: its other dialogs. */
  children?: ReactNode;
}

const useStyles = makeStyles({
  actions: { display: 'flex', gap: tokens.spacingHorizontalXS },
  more: { display: 'flex', justifyContent: 'center', padding: tokens.spacingVerticalM },
});

const allows = <T,>(rule: Allowed<T> | undefined, item: T): boolean =>
  rule === undefined || (typeof rule === 'function' ? rule(item) : rule);

/** Listens to the list's realtime event (if any): patches the loaded rows or reloads them. */
function useListRealtime<T, E>(realtime: CrudListRealtime<T, E> | undefined, queryKey: QueryKey, listKey: QueryKey) {
  const companyId = useAuthStore((s) => s.user?.companyId);
  const name = realtime?.event ?? (realtime?.resource && companyId ? companyEvent(companyId, realtime.resource) : undefined);
  useRealtimeRawEvent<E>(name, (payload) => {
    const merge = realtime?.merge;
    if (merge) updatePagedItems<T>(queryKey, (items) => merge(items, payload));
    else void queryClient.invalidateQueries({ queryKey: realtime?.reload ?? listKey });
  });
}

/**
 * A whole list-and-dialog page (files, quick messages, users, tags, announcements...): the header with the
 * search and the add button, the rows loaded page by page as the user scrolls, the edit and delete buttons,
 * the page's add/edit dialog and the delete confirmation. Every such page wrote the same ~45 lines around
 * its columns; here they are once, so a page declares only what is its own: columns, dialog, strings,
 * who may do what.
 *
 * ```tsx
 * export default function TagsPage() {
 *   const { t } = useTranslation('tags');
 *   const isAdmin = useIsAdmin();
 *   return (
 *     <CrudListPage<Tag>
 *       namespace="tags"
 *       queryKey={[...TAGS_KEY, 'page']}
 *       listKey={TAGS_KEY}
 *       api={tagsApi}
 *       testIds={{ page: 'tags', row: 'tag' }}
 *       columns={[{ id: 'name', header: t('columns.name'), cell: (tag) => tag.name }]}
 *       canEdit={isAdmin}
 *       deleteTitleValues={(tag) => ({ name: tag.name })}
 *       dialog={({ item, onClose }) => <TagModal tag={item} onClose={onClose} />}
 *     />
 *   );
 * }
 * ```
 */
export function CrudListPage<T extends { id: RowId }, E = unknown>({
  namespace,
  keyPrefix,
  queryKey,
  listKey = queryKey,
  api,
  columns,
  testIds,
  dialog,
  deleteTitleValues,
  canAdd = true,
  canEdit,
  canDelete,
  lowerCaseSearch = false,
  realtime,
  layout,
  rowActions,
  actionsWidth,
  headerExtra,
  subtitle,
  banner,
  loadMoreButton = false,
  children,
}: CrudListPageProps<T, E>) {
  const styles = useStyles();
  const { t } = useTranslation(namespace, keyPrefix ? { keyPrefix } : undefined);
  const { search, setSearch, searchParam } = useSearch({ lowerCase: lowerCaseSearch });
  const list = usePagedQuery<T>([...queryKey, { searchParam }], (page) => api.page(searchParam, page));
  const dialogs = useListDialogs<T>();
  useListRealtime(realtime, queryKey, listKey);

  const editDelete = (item: T) => (
    <EditDeleteActions
      testIdPrefix={testIds.row}
      id={item.id}
      onEdit={allows(canEdit, item) ? () => dialogs.openEdit(item) : undefined}
      onDelete={allows(canDelete, item) ? () => dialogs.askDelete(item) : undefined}
    />
  );

  return (
    <PageContainer>
      <ListHeader
        title={t('title')}
        subtitle={subtitle}
        search={{ value: search, onChange: setSearch, label: t('search'), testId: `${testIds.page}-search` }}
        add={canAdd ? { label: t('add'), onClick: dialogs.openAdd, testId: `${testIds.page}-add` } : undefined}
        extra={headerExtra}
      />
      {banner}
      <PageContent>
        <InfiniteList list={list} emptyTitle={t('empty')} testId={`${testIds.page}-scroller`}>
          <DataTable
            label={t('title')}
            layout={layout}
            rows={list.items}
            columns={columns}
            rowKey={(item) => item.id}
            rowTestId={(item) => `${testIds.row}-row-${item.id}`}
            actionsHeader={t('columns.actions')}
            actionsWidth={actionsWidth}
            actions={(item) =>
              rowActions ? (
                <div className={styles.actions}>
                  {rowActions(item)}
                  {editDelete(item)}
                </div>
              ) : (
                editDelete(item)
              )
            }
          />
          {loadMoreButton && list.hasMore ? (
            <div className={styles.more}>
              <Button appearance="subtle" disabled={list.isFetching} onClick={() => void list.loadMore()}>
                {t('actions.loadMore', { ns: 'common' })}
              </Button>
            </div>
          ) : null}
        </InfiniteList>
      </PageContent>
      {dialogs.editing ? <Fragment key={dialogs.edited?.id ?? 'new'}>{dialog({ item: dialogs.edited, onClose: dialogs.closeForm })}</Fragment> : null}
      <DeleteDialog
        item={dialogs.deleting}
        onClose={dialogs.closeDelete}
        title={(item) => t('confirmDelete.title', deleteTitleValues(item))}
        body={t('confirmDelete.body')}
        remove={(item) => api.remove(item.id)}
        listKey={listKey}
        deletedMessage={t('toasts.deleted')}
      />
      {children}
    </PageContainer>
  );
}

/**
 * The usual realtime payload of a record list, `{ action, <record>, <record>Id }`, applied to the loaded rows:
 * a delete drops the row; anything else merges the record into its row, or adds it when it is not loaded
 * (at the end, or at the start with `insert: 'start'`; with `onlyCreated`, only for a 'create').
 */
export function mergeRecordEvent<T extends { id: RowId }>(
  items: T[],
  event: { action: string; record?: T; id?: T['id'] },
  { insert = 'end', onlyCreated = false }: { insert?: 'start' | 'end'; onlyCreated?: boolean } = {},
): T[] {
  if (event.action === 'delete') {
    const id = event.id ?? event.record?.id;
    return items.filter((item) => item.id !== id);
  }
  const changed = event.record;
  if (!changed) return items;
  if (items.some((item) => item.id === changed.id)) return items.map((item) => (item.id === changed.id ? { ...item, ...changed } : item));
  if (onlyCreated && event.action !== 'create') return items;
  return insert === 'start' ? [changed, ...items] : [...items, changed];
}
