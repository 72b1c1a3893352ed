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
  tokens,
} from '@fluentui/react-components';
import { Add20Regular, Delete20Regular, Edit20Regular, Search20Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { useResponsiveTable } from '../../../components/responsive';
import { updatePagedItems, usePagedQuery } from '../../../api/query';
import { useRealtimeEvent } from '../../../api/socket';
import { ConfirmationDialog } from '../../../components/confirmation-dialog';
import { RowAction } from '../../../components/row-action';
import { ListBody } from '../../../components/list-body';
import { PageContainer, PageContent } from '../../../components/page-container';
import { PageHeader } from '../../../components/page-header';
import { useDebouncedValue } from '../../../hooks/use-debounced-value';
import { USERS_KEY, usersApi, type User } from '../api/users';
import { UserModal } from './user-modal';
import { removeRow } from '../../../hooks/remove-row';

interface UserEvent {
  action: string;
  user?: User;
  userId?: number;
}

/** /users. */
export default function UsersPage() {
  const narrow = useResponsiveTable();
  const { t } = useTranslation('users');
  const { t: tc } = useTranslation();
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim().toLowerCase());
  const { items, hasMore, isLoading, loadMore } = usePagedQuery<User>([...USERS_KEY, { searchParam }], (page) =>
    usersApi.page(searchParam, page),
  );
  const [editing, setEditing] = useState<User | 'new' | null>(null);
  const [deleting, setDeleting] = useState<User | null>(null);

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

  const remove = (user: User) => removeRow(() => usersApi.remove(user.id), USERS_KEY, t('toasts.deleted'));

  return (
    <PageContainer>
      <PageHeader
        title={t('title')}
        actions={
          <>
            <Input
              contentBefore={<Search20Regular />}
              placeholder={t('search')}
              aria-label={t('search')}
              value={search}
              onChange={(_, d) => setSearch(d.value)}
            />
            <Button appearance="primary" icon={<Add20Regular />} data-testid="users-add" onClick={() => setEditing('new')}>
              {t('add')}
            </Button>
          </>
        }
      />
      <PageContent>
        <div
          style={{ height: '100%', overflow: 'auto' }}
          onScroll={(e) => {
            const el = e.currentTarget;
            if (hasMore && el.scrollHeight - (el.scrollTop + el.clientHeight) < 100) void loadMore();
          }}
        >
          <ListBody loading={isLoading} empty={items.length === 0} emptyTitle={t('empty')}>
            <Table aria-label={t('title')}>
              <TableHeader>
                <TableRow>
                  <TableHeaderCell style={{ width: 70 }} className={narrow.secondary}>{t('columns.id')}</TableHeaderCell>
                  <TableHeaderCell>{t('columns.name')}</TableHeaderCell>
                  <TableHeaderCell className={narrow.secondary}>{t('columns.email')}</TableHeaderCell>
                  <TableHeaderCell>{t('columns.profile')}</TableHeaderCell>
                  <TableHeaderCell style={{ width: 110 }}>{t('columns.actions')}</TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {items.map((u) => (
                  <TableRow key={u.id} data-testid={`user-row-${u.id}`}>
                    <TableCell style={{ color: tokens.colorNeutralForeground3 }} className={narrow.secondary}>
                      {u.id}
                    </TableCell>
                    <TableCell>{u.name}</TableCell>
                    <TableCell className={narrow.secondary}>{u.email}</TableCell>
                    <TableCell>
                      <Badge appearance="tint" color={u.profile === 'admin' ? 'brand' : 'informative'}>
                        {t(`profiles.${u.profile === 'admin' ? 'admin' : 'user'}`)}
                      </Badge>
                    </TableCell>
                    <TableCell>
                      <RowAction label={tc('actions.edit')} icon={<Edit20Regular />} onClick={() => setEditing(u)} />
                      <RowAction label={tc('actions.delete')} icon={<Delete20Regular />} onClick={() => setDeleting(u)} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </ListBody>
        </div>
      </PageContent>
      {editing ? (
        <UserModal key={editing === 'new' ? 'new' : editing.id} user={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />
      ) : null}
      <ConfirmationDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t('confirmDelete.title', { name: deleting?.name ?? '' })}
        confirmLabel={tc('actions.delete')}
        destructive
        onConfirm={() => (deleting ? remove(deleting) : undefined)}
      >
        {t('confirmDelete.body')}
      </ConfirmationDialog>
    </PageContainer>
  );
}
