import { Dropdown, Field, Input, Option, Select, makeStyles, tokens } from '@fluentui/react-components';
import { can, createUserSchema, updateUserSchema, type UpdateUserInput } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { useQuery } from '../../../api/query';
import { FormDialog, saveRecord } from '../../../components/list-kit';
import { useCurrentUser } from '../../../stores/auth-store';
import { USERS_KEY, usersApi, type User } from '../api/users';

const useStyles = makeStyles({
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

type UserValues = {
  name: string;
  email: string;
  password: string;
  profile: string;
  allTicket: string;
  whatsappId: string;
  queueIds: number[];
};

/**
 * Add or edit a user: name 2-50, email, password 5-50 (optional on edit); profile, queues, connection and
 * ticket visibility only for who passes user-modal:editProfile / editQueues.
 */
export function UserModal({ user, onClose }: { user?: User; onClose: () => void }) {
  const styles = useStyles();
  const { t } = useTranslation('users');
  const me = useCurrentUser();
  const editProfile = can(me?.profile, 'user-modal:editProfile');
  const editQueues = can(me?.profile, 'user-modal:editQueues');
  const queues = useQuery(['queues'], usersApi.queues, { enabled: editQueues, staleTime: 30_000 });
  const connections = useQuery(['connections'], usersApi.connections, { enabled: editQueues, staleTime: 30_000 });
  const queueName = (id: number) => queues.data?.find((q) => q.id === id)?.name ?? String(id);

  const initialValues: UserValues = {
    name: user?.name ?? '',
    email: user?.email ?? '',
    password: '',
    profile: user?.profile ?? 'user',
    allTicket: user?.allTicket ?? 'desabled',
    whatsappId: user?.whatsappId ? String(user.whatsappId) : '',
    queueIds: user?.queues.map((q) => q.id) ?? [],
  };
  const toPayload = ({ name, email, password, profile, allTicket, queueIds, whatsappId }: UserValues) => {
    const values: Record<string, unknown> = { name, email, password };
    if (editProfile) Object.assign(values, { profile, allTicket });
    if (editQueues) Object.assign(values, { queueIds, whatsappId: whatsappId ? Number(whatsappId) : null });
    return values;
  };

  return (
    <FormDialog<UserValues, UpdateUserInput>
      title={user ? t('modal.editTitle') : t('modal.addTitle')}
      schema={user ? updateUserSchema : createUserSchema}
      initialValues={initialValues}
      toPayload={toPayload}
      width={600}
      testId="user-modal"
      saveTestId="user-save"
      onClose={onClose}
      onSubmit={(data) => saveRecord(usersApi, user?.id, data, { listKey: USERS_KEY, savedMessage: t('toasts.saved') })}
    >
      {(form) => (
        <>
          <div className={styles.row}>
            <Field label={t('fields.name')} required {...form.field('name')}>
              <Input maxLength={50} autoFocus data-testid="user-name" {...form.text('name')} />
            </Field>
            <Field label={t('fields.password')} required={!user} hint={user ? `${t('fields.passwordHint')}. ${t('validation.passwordRule', { ns: 'common' })}` : t('validation.passwordRule', { ns: 'common' })} {...form.field('password')}>
              <Input type="password" maxLength={50} data-testid="user-password" {...form.text('password')} />
            </Field>
          </div>
          <div className={styles.row}>
            <Field label={t('fields.email')} required {...form.field('email')}>
              <Input type="email" data-testid="user-email" {...form.text('email')} />
            </Field>
            {editProfile ? (
              <Field label={t('fields.profile')} {...form.field('profile')}>
                <Select value={form.values.profile} data-testid="user-profile" onChange={(_, d) => form.set('profile', d.value)}>
                  <option value="admin">{t('profiles.admin')}</option>
                  <option value="user">{t('profiles.user')}</option>
                </Select>
              </Field>
            ) : null}
          </div>
          {editQueues ? (
            <>
              <Field label={t('fields.queues')} {...form.field('queueIds')}>
                <Dropdown
                  multiselect
                  data-testid="user-queues"
                  selectedOptions={form.values.queueIds.map(String)}
                  value={form.values.queueIds.map(queueName).join(', ')}
                  onOptionSelect={(_, d) => form.set('queueIds', d.selectedOptions.map(Number))}
                >
                  {(queues.data ?? []).map((q) => (
                    <Option key={q.id} value={String(q.id)} text={q.name}>
                      {q.name}
                    </Option>
                  ))}
                </Dropdown>
              </Field>
              <Field label={t('fields.connection')} {...form.field('whatsappId')}>
                <Select value={form.values.whatsappId} data-testid="user-connection" onChange={(_, d) => form.set('whatsappId', d.value)}>
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
            <Field label={t('fields.allTicket')} {...form.field('allTicket')}>
              <Select value={form.values.allTicket} data-testid="user-allticket" onChange={(_, d) => form.set('allTicket', d.value)}>
                <option value="enabled">{t('allTicket.enabled')}</option>
                <option value="desabled">{t('allTicket.desabled')}</option>
              </Select>
            </Field>
          ) : null}
        </>
      )}
    </FormDialog>
  );
}
