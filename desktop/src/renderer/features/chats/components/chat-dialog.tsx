import { useMemo, useState } from 'react';
import { Checkbox, Field, Input, makeStyles, Spinner, Text, tokens } from '@fluentui/react-components';
import { Search20Regular } from '@fluentui/react-icons';
import { createChatSchema } from '@atrium/shared';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/list-kit';
import { toast } from '../../../components/toasts';
import { chatsApi, fetchUsers, USERS_KEY, type Chat } from '../api/chats';

const useStyles = makeStyles({
  users: {
    display: 'flex',
    flexDirection: 'column',
    maxHeight: '260px',
    overflowY: 'auto',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    padding: tokens.spacingVerticalXS,
  },
  muted: { color: tokens.colorNeutralForeground3, padding: tokens.spacingVerticalS },
  error: { color: tokens.colorPaletteRedForeground1, marginTop: `-${tokens.spacingVerticalS}` },
});

interface ChatValues extends Record<string, unknown> {
  title: string;
  users: number[];
}

export interface ChatDialogProps {
  /** The chat to edit (its owner only); none to start one. */
  chat?: Chat;
  userId: number | undefined;
  onClose: () => void;
  onSaved: (chat: Chat) => void;
}

/** New chat or edit: a title and the colleagues taking part (the owner always does). Spec 02: both are required. */
export function ChatDialog({ chat, userId, onClose, onSaved }: ChatDialogProps) {
  const styles = useStyles();
  const { t } = useTranslation('chats');
  const [filter, setFilter] = useState('');
  const users = useQuery({ queryKey: USERS_KEY, queryFn: fetchUsers });
  const others = useMemo(() => {
    const term = filter.trim().toLowerCase();
    return (users.data ?? []).filter((u) => u.id !== userId && (!term || u.name.toLowerCase().includes(term)));
  }, [users.data, userId, filter]);
  const usersRequired = t('dialog.usersRequired');

  return (
    <FormDialog<ChatValues, { title: string; users: number[] }>
      title={chat ? t('dialog.editTitle') : t('dialog.addTitle')}
      schema={createChatSchema}
      initialValues={{ title: chat?.title ?? '', users: chat?.users.map((u) => u.userId).filter((id) => id !== userId) ?? [] }}
      // The contract's shape: users as [{id}].
      toPayload={(values) => ({ title: values.title, users: values.users.map((id) => ({ id })) })}
      messages={{
        title: { required: t('dialog.titleRequired') },
        users: { required: usersRequired, invalid: usersRequired, tooShort: usersRequired },
      }}
      onSubmit={async (data, values) => {
        const form = { title: data.title, users: values.users.map((id) => ({ id })) };
        const saved = chat ? await chatsApi.update(chat.id, form) : await chatsApi.create(form);
        toast.success(chat ? t('toasts.saved') : t('toasts.created'));
        onSaved(saved);
      }}
      onClose={onClose}
      testId="chat-dialog"
      saveTestId="chat-save"
    >
      {(form) => (
        <>
          <Field label={t('dialog.name')} required {...form.field('title')}>
            <Input maxLength={100} autoFocus data-testid="chat-title" {...form.text('title')} />
          </Field>
          <Field label={t('dialog.users')} required>
            <Input
              contentBefore={<Search20Regular />}
              placeholder={t('dialog.search')}
              aria-label={t('dialog.search')}
              value={filter}
              onChange={(_, d) => setFilter(d.value)}
              data-testid="chat-user-filter"
            />
          </Field>
          <div
            className={styles.users}
            style={form.errors.users ? { borderColor: tokens.colorPaletteRedBorder2 } : undefined}
            role="group"
            aria-label={t('dialog.users')}
            aria-invalid={form.errors.users ? true : undefined}
            data-testid="chat-users"
          >
            {users.isLoading ? <Spinner size="tiny" /> : null}
            {!users.isLoading && others.length === 0 ? <Text className={styles.muted}>{t('dialog.noUsers')}</Text> : null}
            {others.map((u) => (
              <Checkbox
                key={u.id}
                label={u.name}
                checked={form.values.users.includes(u.id)}
                data-testid={`chat-user-${u.id}`}
                onChange={(_, d) =>
                  form.set('users', d.checked === true ? [...form.values.users, u.id] : form.values.users.filter((id) => id !== u.id))
                }
              />
            ))}
          </div>
          {form.errors.users ? (
            <Text role="alert" size={200} className={styles.error} data-testid="chat-users-error">
              {form.errors.users}
            </Text>
          ) : null}
        </>
      )}
    </FormDialog>
  );
}
