import { Badge, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { CrudListPage, mergeRecordEvent, type Column } from '../../../components/list-kit';
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
    <CrudListPage<User, UserEvent>
      namespace="users"
      queryKey={USERS_KEY}
      api={usersApi}
      testIds={{ page: 'users', row: 'user' }}
      columns={columns}
      lowerCaseSearch
      realtime={{
        resource: 'user',
        merge: (items, event) => mergeRecordEvent(items, { action: event.action, record: event.user, id: event.userId }),
      }}
      deleteTitleValues={(u) => ({ name: u.name })}
      dialog={({ item, onClose }) => <UserModal user={item} onClose={onClose} />}
    />
  );
}
