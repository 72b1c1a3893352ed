import { useState, type FormEvent } from 'react';
import {
  Button,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Spinner,
  Text,
  tokens,
} from '@fluentui/react-components';
import { Eye20Regular, EyeOff20Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { loginSchema } from '@atrium/shared';
import { errorMessage } from '../../../api/errors';
import { AppLink } from '../../../components/app-link';
import { validate, type FieldErrors } from '../../../components/form/validation';
import { useLogin } from '../hooks/use-login';
import { AuthLayout } from './auth-layout';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  row: { display: 'flex', justifyContent: 'flex-end' },
  alt: { textAlign: 'center', color: tokens.colorNeutralForeground2 },
});

/** /login (spec 01 section 2): email, password, links to /signup and /forgetpsw. */
export default function LoginPage() {
  const styles = useStyles();
  const { t } = useTranslation('auth');
  const [values, setValues] = useState({ email: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [showPassword, setShowPassword] = useState(false);
  const { submit, submitting, failure } = useLogin();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const result = validate(loginSchema, values, t);
    setErrors(result.errors);
    if (!result.ok) return;
    await submit(result.data);
  };

  const change = (field: keyof typeof values) => (_: unknown, data: { value: string }) => {
    setValues((v) => ({ ...v, [field]: data.value }));
    if (errors[field]) setErrors(({ [field]: _drop, ...rest }) => rest);
  };

  return (
    <AuthLayout title={t('login.title')} subtitle={t('login.subtitle')}>
      <form className={styles.form} onSubmit={(e) => void onSubmit(e)} noValidate aria-label={t('login.title')}>
        {failure ? (
          <MessageBar intent="error" data-testid="login-failure">
            <MessageBarBody>{errorMessage(failure)}</MessageBarBody>
          </MessageBar>
        ) : null}
        <Field
          label={t('login.email')}
          required
          validationMessage={errors.email}
          validationState={errors.email ? 'error' : 'none'}
        >
          <Input
            type="email"
            name="email"
            data-testid="login-email"
            autoComplete="email"
            autoFocus
            value={values.email}
            onChange={change('email')}
          />
        </Field>
        <Field
          label={t('login.password')}
          required
          validationMessage={errors.password}
          validationState={errors.password ? 'error' : 'none'}
        >
          <Input
            type={showPassword ? 'text' : 'password'}
            name="password"
            data-testid="login-password"
            autoComplete="current-password"
            value={values.password}
            onChange={change('password')}
            contentAfter={
              <Button
                appearance="transparent"
                size="small"
                icon={showPassword ? <EyeOff20Regular /> : <Eye20Regular />}
                aria-label={showPassword ? t('login.hidePassword') : t('login.showPassword')}
                onClick={() => setShowPassword((s) => !s)}
              />
            }
          />
        </Field>
        <div className={styles.row}>
          <AppLink to="/forgetpsw">{t('login.forgot')}</AppLink>
        </div>
        <Button
          type="submit"
          data-testid="login-submit"
          appearance="primary"
          size="large"
          disabled={submitting}
          icon={submitting ? <Spinner size="tiny" /> : undefined}
        >
          {t('login.submit')}
        </Button>
        <Text className={styles.alt}>
          {t('login.noAccount')} <AppLink to="/signup">{t('login.signup')}</AppLink>
        </Text>
      </form>
    </AuthLayout>
  );
}
