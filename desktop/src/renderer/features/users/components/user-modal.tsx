import { useState } from 'react';
import {
  Dialog,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Dropdown,
  Field,
  Input,
  Option,
  Select,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { can, createUserSchema, updateUserSchema } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { queryClient, useQuery } from '../../../api/query';
import { toast } from '../../../components/toasts';
import { validate, type FieldErrors } from '../../../components/form/validation';
import { useCurrentUser } from '../../../stores/auth-store';
import { USERS_KEY, usersApi, type User } from '../api/users';
import { useSaving } from '../../../hooks/use-saving';
import { SaveActions } from '../../../components/form/save-actions';

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  // start: a hint or an error under one field does not push its neighbour out of line; min widths of 0 keep
  // each input inside its column.
  row: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(180px, 1fr))',
    gap: tokens.spacingHorizontalM,
    alignItems: 'start',
    '& > *': { minWidth: 0 },
    '& input': { minWidth: 0 },
    '& .fui-Input': { width: '100%', minWidth: 0 },
  },
});

/**
 * Add or edit a user: name 2-50, email, password 5-50 (optional on edit); profile, queues, connection and
 * ticket visibility only for who passes user-modal:editProfile / editQueues.
 */
export function UserModal({ user, onClose }: { user?: User; onClose: () => void }) {
  const styles = useStyles();
  const { t } = useTranslation('users');
  const { t: tc } = useTranslation();
  const me = useCurrentUser();
  const editProfile = can(me?.profile, 'user-modal:editProfile');
  const editQueues = can(me?.profile, 'user-modal:editQueues');
  const [name, setName] = useState(user?.name ?? '');
  const [email, setEmail] = useState(user?.email ?? '');
  const [password, setPassword] = useState('');
  const [profile, setProfile] = useState(user?.profile ?? 'user');
  const [allTicket, setAllTicket] = useState(user?.allTicket ?? 'desabled');
  const [whatsappId, setWhatsappId] = useState(user?.whatsappId ? String(user.whatsappId) : '');
  const [queueIds, setQueueIds] = useState<number[]>(user?.queues.map((q) => q.id) ?? []);
  const [errors, setErrors] = useState<FieldErrors>({});
  const { saving, run } = useSaving();
  const queues = useQuery(['queues'], usersApi.queues, { enabled: editQueues, staleTime: 30_000 });
  const connections = useQuery(['connections'], usersApi.connections, { enabled: editQueues, staleTime: 30_000 });

  const submit = async () => {
    const values: Record<string, unknown> = { name, email, password };
    if (editProfile) Object.assign(values, { profile, allTicket });
    if (editQueues) Object.assign(values, { queueIds, whatsappId: whatsappId ? Number(whatsappId) : null });
    const result = user ? validate(updateUserSchema, values, tc) : validate(createUserSchema, values, tc);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    await run(async () => {
      if (user) await usersApi.update(user.id, result.data);
      else await usersApi.create(result.data as Parameters<typeof usersApi.create>[0]);
      void queryClient.invalidateQueries({ queryKey: USERS_KEY });
      toast.success(t('toasts.saved'));
      onClose();
    });
  };

  const queueName = (id: number) => queues.data?.find((q) => q.id === id)?.name ?? String(id);

  return (
    <Dialog open onOpenChange={(_, d) => !d.open && !saving && onClose()}>
      <DialogSurface data-testid="user-modal">
        <form noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <DialogBody>
            <DialogTitle>{user ? t('modal.editTitle') : t('modal.addTitle')}</DialogTitle>
            <DialogContent className={styles.content}>
              <div className={styles.row}>
                <Field label={t('fields.name')} required validationMessage={errors.name}>
                  <Input value={name} maxLength={50} autoFocus data-testid="user-name" onChange={(_, d) => setName(d.value)} />
                </Field>
                <Field label={t('fields.password')} required={!user} hint={user ? t('fields.passwordHint') : undefined} validationMessage={errors.password}>
                  <Input type="password" value={password} maxLength={50} data-testid="user-password" onChange={(_, d) => setPassword(d.value)} />
                </Field>
              </div>
              <div className={styles.row}>
                <Field label={t('fields.email')} required validationMessage={errors.email}>
                  <Input type="email" value={email} data-testid="user-email" onChange={(_, d) => setEmail(d.value)} />
                </Field>
                {editProfile ? (
                  <Field label={t('fields.profile')} validationMessage={errors.profile}>
                    <Select value={profile} data-testid="user-profile" onChange={(_, d) => setProfile(d.value)}>
                      <option value="admin">{t('profiles.admin')}</option>
                      <option value="user">{t('profiles.user')}</option>
                    </Select>
                  </Field>
                ) : null}
              </div>
              {editQueues ? (
                <>
                  <Field label={t('fields.queues')} validationMessage={errors.queueIds}>
                    <Dropdown
                      multiselect
                      data-testid="user-queues"
                      selectedOptions={queueIds.map(String)}
                      value={queueIds.map(queueName).join(', ')}
                      onOptionSelect={(_, d) => setQueueIds(d.selectedOptions.map(Number))}
                    >
                      {(queues.data ?? []).map((q) => (
                        <Option key={q.id} value={String(q.id)} text={q.name}>
                          {q.name}
                        </Option>
                      ))}
                    </Dropdown>
                  </Field>
                  <Field label={t('fields.connection')} validationMessage={errors.whatsappId}>
                    <Select value={whatsappId} data-testid="user-connection" onChange={(_, d) => setWhatsappId(d.value)}>
                      <option value="">{t('fields.noConnection')}</option>
                      {(connections.data ?? []).map((c) => (
                        <option key={c.id} value={String(c.id)}>
                          {c.name}
                        </option>
                      ))}
                    </Select>
                  </Field>
                </>
              ) : null}
              {editProfile ? (
                <Field label={t('fields.allTicket')} validationMessage={errors.allTicket}>
                  <Select value={allTicket} data-testid="user-allticket" onChange={(_, d) => setAllTicket(d.value)}>
                    <option value="enabled">{t('allTicket.enabled')}</option>
                    <option value="desabled">{t('allTicket.desabled')}</option>
                  </Select>
                </Field>
              ) : null}
            </DialogContent>
            <SaveActions saving={saving} onCancel={onClose} saveTestId="user-save" />
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
