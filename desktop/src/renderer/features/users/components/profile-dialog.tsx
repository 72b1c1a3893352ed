import { useEffect, useState } from 'react';
import {
  Dialog,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  Select,
} from '@fluentui/react-components';
import { LANGUAGES, updateUserSchema, type Language } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { authApi } from '../../../api/auth';
import { toast } from '../../../components/toasts';
import { validate, type FieldErrors } from '../../../components/form/validation';
import { changeLanguage } from '../../../i18n';
import { useAuthStore, useCurrentUser } from '../../../stores/auth-store';
import { usePreferences } from '../../../stores/preferences-store';
import { usersApi } from '../api/users';
import { useSaving } from '../../../hooks/use-saving';
import { SaveActions } from '../../../components/form/save-actions';
import { ProfileSessions } from './profile-sessions';

/**
 * The user menu's "profile": the user's own name, email, password and language (PUT /users/{id}), and the
 * sessions they are signed in with.
 */
export default function ProfileDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation('users');
  const { t: tc } = useTranslation();
  const user = useCurrentUser();
  const language = usePreferences((s) => s.language);
  const setPreference = usePreferences((s) => s.set);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [lang, setLang] = useState<Language>(language);
  const [errors, setErrors] = useState<FieldErrors>({});
  const { saving, run } = useSaving();

  useEffect(() => {
    if (!open) return;
    setName(user?.name ?? '');
    setEmail(user?.email ?? '');
    setPassword('');
    setLang(language);
    setErrors({});
  }, [open, user, language]);

  const submit = async () => {
    if (!user) return;
    const result = validate(updateUserSchema, { name, email, password }, tc);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    await run(async () => {
      const saved = await usersApi.update(user.id, result.data);
      const current = useAuthStore.getState().user;
      if (current) useAuthStore.setState({ user: { ...current, name: saved.name ?? name, email: saved.email ?? email } });
      if (lang !== language) {
        setPreference('language', lang);
        await changeLanguage(lang);
        await authApi.setLanguage(lang).catch(() => undefined);
      }
      toast.success(t('toasts.profileSaved'));
      onOpenChange(false);
    });
  };

  return (
    <Dialog open={open} onOpenChange={(_, data) => !saving && onOpenChange(data.open)}>
      <DialogSurface data-testid="profile-dialog">
        <form noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <DialogBody>
            <DialogTitle>{tc('layout.profile')}</DialogTitle>
            <DialogContent style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
              <Field label={t('fields.name')} required validationMessage={errors.name}>
                <Input value={name} maxLength={50} onChange={(_, d) => setName(d.value)} />
              </Field>
              <Field label={t('fields.email')} required validationMessage={errors.email}>
                <Input type="email" value={email} onChange={(_, d) => setEmail(d.value)} />
              </Field>
              <Field label={t('fields.password')} hint={`${t('fields.passwordHint')}. ${t('validation.passwordRule', { ns: 'common' })}`} validationMessage={errors.password}>
                <Input type="password" value={password} maxLength={50} onChange={(_, d) => setPassword(d.value)} />
              </Field>
              <Field label={t('fields.language')}>
                <Select value={lang} onChange={(_, d) => setLang(d.value as Language)}>
                  {LANGUAGES.map((l) => (
                    <option key={l} value={l}>
                      {tc(`languages.${l}`)}
                    </option>
                  ))}
                </Select>
              </Field>
              {open ? <ProfileSessions /> : null}
            </DialogContent>
            <SaveActions saving={saving} onCancel={() => onOpenChange(false)} />
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
