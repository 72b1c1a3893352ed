import { useMemo, useState } from 'react';
import {
  Checkbox,
  Dialog,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  makeStyles,
  Spinner,
  Text,
  tokens,
} from '@fluentui/react-components';
import { Search20Regular } from '@fluentui/react-icons';
import { createChatSchema } from '@atrium/shared';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { SaveActions } from '../../../components/form/save-actions';
import { validate, type FieldErrors } from '../../../components/form/validation';
import { toast } from '../../../components/toasts';
import { useSaving } from '../../../hooks/use-saving';
import { chatsApi, fetchUsers, USERS_KEY, type Chat } from '../api/chats';

const useStyles = makeStyles({
  surface: { maxWidth: '480px', width: '100%' },
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
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

export interface ChatDialogProps {
  /** The chat to edit (its owner only); none to start one. */
  chat?: Chat;
  userId: number | undefined;
  onClose: () => void;
  onSaved: (chat: Chat) => void;
}

/** New chat or edit: a title and the colleagues taking part (the owner always does). */
export function ChatDialog({ chat, userId, onClose, onSaved }: ChatDialogProps) {
  const styles = useStyles();
  const { t } = useTranslation('chats');
  const { t: tc } = useTranslation();
  const [title, setTitle] = useState(chat?.title ?? '');
  const [selected, setSelected] = useState<Set<number>>(() => new Set(chat?.users.map((u) => u.userId).filter((id) => id !== userId) ?? []));
  const [filter, setFilter] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const { saving, run } = useSaving();
  const users = useQuery({ queryKey: USERS_KEY, queryFn: fetchUsers });
  const others = useMemo(() => {
    const term = filter.trim().toLowerCase();
    return (users.data ?? []).filter((u) => u.id !== userId && (!term || u.name.toLowerCase().includes(term)));
  }, [users.data, userId, filter]);

  const submit = async () => {
    const payload = { title, users: [...selected].map((id) => ({ id })) };
    const result = validate(createChatSchema, payload, tc);
    if (!result.ok) {
      const next: FieldErrors = {};
      if (result.errors.title) next.title = title.trim() ? result.errors.title : t('dialog.titleRequired');
      if (Object.keys(result.errors).some((k) => k.startsWith('users'))) next.users = t('dialog.usersRequired');
      setErrors(next);
      return;
    }
    await run(async () => {
      const form = { title: result.data.title, users: payload.users };
      const saved = chat ? await chatsApi.update(chat.id, form) : await chatsApi.create(form);
      toast.success(chat ? t('toasts.saved') : t('toasts.created'));
      onSaved(saved);
      onClose();
    });
  };

  return (
    <Dialog open onOpenChange={(_, d) => !d.open && !saving && onClose()}>
      <DialogSurface className={styles.surface} data-testid="chat-dialog">
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <DialogBody>
            <DialogTitle>{chat ? t('dialog.editTitle') : t('dialog.addTitle')}</DialogTitle>
            <DialogContent className={styles.content}>
              <Field label={t('dialog.name')} required validationMessage={errors.title}>
                <Input
                  value={title}
                  maxLength={100}
                  autoFocus
                  data-testid="chat-title"
                  onChange={(_, d) => {
                    setTitle(d.value);
                    setErrors(({ title: _t, ...rest }) => rest);
                  }}
                />
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
                role="group"
                aria-label={t('dialog.users')}
                aria-invalid={errors.users ? true : undefined}
                data-testid="chat-users"
                style={errors.users ? { borderColor: tokens.colorPaletteRedBorder2 } : undefined}
              >
                {users.isLoading ? <Spinner size="tiny" /> : null}
                {!users.isLoading && others.length === 0 ? <Text className={styles.muted}>{t('dialog.noUsers')}</Text> : null}
                {others.map((u) => (
                  <Checkbox
                    key={u.id}
                    label={u.name}
                    checked={selected.has(u.id)}
                    data-testid={`chat-user-${u.id}`}
                    onChange={(_, d) => {
                      setSelected((old) => {
                        const next = new Set(old);
                        if (d.checked) next.add(u.id);
                        else next.delete(u.id);
                        return next;
                      });
                      setErrors(({ users: _u, ...rest }) => rest);
                    }}
                  />
                ))}
              </div>
              {errors.users ? (
                <Text role="alert" size={200} className={styles.error} data-testid="chat-users-error">
                  {errors.users}
                </Text>
              ) : null}
            </DialogContent>
            <SaveActions saving={saving} onCancel={onClose} saveTestId="chat-save" />
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
