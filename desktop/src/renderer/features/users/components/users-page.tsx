import { Badge, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { updatePagedItems, usePagedQuery } from '../../../api/query';
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
import { USERS_KEY, usersApi, type User } from '../api/users';
import { UserModal } from './user-modal';

interface UserEvent {
  action: string;
  user?: User;
  userId?: number;
}

/** /users. */
export default function UsersPage() {
  const { t } = useTranslation('users');
  const { search, setSearch, searchParam } = useSearch({ lowerCase: true });
  const list = usePagedQuery<User>([...USERS_KEY, { searchParam }], (page) => usersApi.page(searchParam, page));
  const dialogs = useListDialogs<User>();

  useRealtimeEvent<UserEvent>('user', (event) => {
    updatePagedItems<User>(USERS_KEY, (items) => {
      if (event.action === 'delete') {
        const id = event.userId ?? event.user?.id;
        return items.filter((u) => u.id !== id);
      }
      const changed = event.user;
      if (!changed) return items;
      return items.some((u) => u.id === changed.id)
        ? items.map((u) => (u.id === changed.id ? { ...u, ...changed } : u))
        : [...items, changed];
    });
  });

  const columns: Column<User>[] = [
    { id: 'id', header: t('columns.id'), width: 70, secondary: true, cellStyle: { color: tokens.colorNeutralForeground3 }, cell: (u) => u.id },
    { id: 'name', header: t('columns.name'), cell: (u) => u.name },
    { id: 'email', header: t('columns.email'), secondary: true, cell: (u) => u.email },
    {
      id: 'profile',
      header: t('columns.profile'),
      cell: (u) => (
        <Badge appearance="tint" color={u.profile === 'admin' ? 'brand' : 'informative'}>
          {t(`profiles.${u.profile === 'admin' ? 'admin' : 'user'}`)}
        </Badge>
      ),
    },
  ];

  return (
    <PageContainer>
      <ListHeader
        title={t('title')}
        search={{ value: search, onChange: setSearch, label: t('search'), testId: 'users-search' }}
        add={{ label: t('add'), onClick: dialogs.openAdd, testId: 'users-add' }}
      />
      <PageContent>
        <InfiniteList
          list={list}
          emptyTitle={t('empty')}
          testId="users-scroller"
        >
          <DataTable
            label={t('title')}
            rows={list.items}
            columns={columns}
            rowKey={(u) => u.id}
            rowTestId={(u) => `user-row-${u.id}`}
            actionsHeader={t('columns.actions')}
            actions={(u) => (
              <EditDeleteActions testIdPrefix="user" id={u.id} onEdit={() => dialogs.openEdit(u)} onDelete={() => dialogs.askDelete(u)} />
            )}
          />
        </InfiniteList>
      </PageContent>
      {dialogs.editing ? <UserModal key={dialogs.edited?.id ?? 'new'} user={dialogs.edited} onClose={dialogs.closeForm} /> : null}
      <DeleteDialog
        item={dialogs.deleting}
        onClose={dialogs.closeDelete}
        title={(u) => t('confirmDelete.title', { name: u.name })}
        body={t('confirmDelete.body')}
        remove={(u) => usersApi.remove(u.id)}
        listKey={USERS_KEY}
        deletedMessage={t('toasts.deleted')}
      />
    </PageContainer>
  );
}
