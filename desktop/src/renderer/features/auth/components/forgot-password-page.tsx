import { useState, type FormEvent } from 'react';
import { Button, Field, Input, makeStyles, MessageBar, MessageBarBody, Spinner, Text, tokens } from '@fluentui/react-components';
import { Eye20Regular, EyeOff20Regular } from '@fluentui/react-icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { forgotPasswordParamsSchema, resetPasswordFormSchema } from '@atrium/shared';
import { toastError } from '../../../api/errors';
import { useQuery } from '../../../api/query';
import { AppLink } from '../../../components/app-link';
import { validate, type FieldErrors } from '../../../components/form/validation';
import { toast } from '../../../components/toasts';
import { fetchResetStatus, requestResetCode, resetPassword } from '../api/password-reset';
import { AuthLayout } from './auth-layout';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  alt: { textAlign: 'center', color: tokens.colorNeutralForeground2 },
  row: { display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
});

type Values = { email: string; token: string; newPassword: string; confirmPassword: string };

/**
 * /forgetpsw (spec 02 "Reset password page"): step 1 asks for the e-mail and sends a code; step 2 takes
 * e-mail, code, new password and confirmation, then goes to /login. The same message whether or not the
 * address has an account. Where the server sends no e-mail, the page says so and who can help.
 */
export default function ForgotPasswordPage() {
  const styles = useStyles();
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  // Whether this server sends codes; a failure to ask is not shown (the send step reports its own errors).
  const status = useQuery(['forgetpassword'], fetchResetStatus, { silent: true });
  const [turnedOff, setTurnedOff] = useState(false);
  const enabled = turnedOff ? false : status.data ? status.data.emailEnabled : status.isLoading ? null : true;
  const [step, setStep] = useState<'email' | 'reset'>('email');
  const [values, setValues] = useState<Values>({ email: '', token: '', newPassword: '', confirmPassword: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [show, setShow] = useState({ newPassword: false, confirmPassword: false });

  const set = (field: keyof Values) => (_: unknown, data: { value: string }) => {
    setValues((v) => ({ ...v, [field]: data.value }));
    if (errors[field]) setErrors(({ [field]: _drop, ...rest }) => rest);
  };
  const field = (name: keyof Values) => ({
    validationMessage: errors[name],
    validationState: errors[name] ? ('error' as const) : ('none' as const),
  });

  const sendCode = async (event?: FormEvent) => {
    event?.preventDefault();
    const result = validate(forgotPasswordParamsSchema, { email: values.email }, t);
    setErrors(result.errors);
    if (!result.ok) return;
    setBusy(true);
    try {
      const answer = await requestResetCode(result.data.email);
      if (!answer.emailEnabled) {
        setTurnedOff(true);
        return;
      }
      toast.success(t('forgot.emailSent'));
      setStep('reset');
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  const reset = async (event: FormEvent) => {
    event.preventDefault();
    const result = validate(resetPasswordFormSchema, values, t);
    const fieldErrors = { ...result.errors };
    if (fieldErrors.newPassword && values.newPassword) fieldErrors.newPassword = t('forgot.passwordRule');
    if (fieldErrors.confirmPassword && values.confirmPassword) fieldErrors.confirmPassword = t('forgot.mismatch');
    if (fieldErrors.token && values.token) fieldErrors.token = t('forgot.codeShape');
    setErrors(fieldErrors);
    if (!result.ok) return;
    setBusy(true);
    try {
      await resetPassword({ email: result.data.email, token: result.data.token, newPassword: result.data.newPassword });
      toast.success(t('forgot.passwordUpdated'));
      navigate('/login');
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  const toggle = (name: 'newPassword' | 'confirmPassword') => (
    <Button
      appearance="transparent"
      size="small"
      icon={show[name] ? <EyeOff20Regular /> : <Eye20Regular />}
      aria-label={show[name] ? t('login.hidePassword') : t('login.showPassword')}
      data-testid={`forgot-toggle-${name}`}
      onClick={() => setShow((s) => ({ ...s, [name]: !s[name] }))}
    />
  );

  const links = (
    <>
      <Text className={styles.alt}>
        {t('login.noAccount')} <AppLink to="/signup">{t('login.signup')}</AppLink>
      </Text>
      <Text align="center">
        <AppLink to="/login">{t('forgot.backToLogin')}</AppLink>
      </Text>
    </>
  );

  if (enabled === false) {
    return (
      <AuthLayout title={t('forgot.title')}>
        <Text align="center" style={{ color: tokens.colorNeutralForeground2 }} data-testid="forgot-not-configured">
          {t('forgot.notConfigured')}
        </Text>
        {links}
      </AuthLayout>
    );
  }

  const submitButton = (label: string, testId: string) => (
    <Button type="submit" appearance="primary" size="large" data-testid={testId} disabled={busy || enabled === null} icon={busy ? <Spinner size="tiny" /> : undefined}>
      {label}
    </Button>
  );

  if (step === 'email') {
    return (
      <AuthLayout title={t('forgot.title')} subtitle={t('forgot.step1')}>
        <form className={styles.form} onSubmit={(e) => void sendCode(e)} noValidate aria-label={t('forgot.title')}>
          <Field label={t('login.email')} required {...field('email')}>
            <Input type="email" name="email" autoComplete="email" autoFocus data-testid="forgot-email" value={values.email} onChange={set('email')} />
          </Field>
          {submitButton(t('forgot.sendCode'), 'forgot-send')}
          {links}
        </form>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={t('forgot.title')} subtitle={t('forgot.step2')}>
      <form className={styles.form} onSubmit={(e) => void reset(e)} noValidate aria-label={t('forgot.title')}>
        <MessageBar intent="info" data-testid="forgot-sent">
          <MessageBarBody>{t('forgot.sentTo', { email: values.email })}</MessageBarBody>
        </MessageBar>
        <Field label={t('login.email')} required {...field('email')}>
          <Input type="email" name="email" autoComplete="email" data-testid="forgot-email" value={values.email} onChange={set('email')} />
        </Field>
        <Field label={t('forgot.code')} required hint={t('forgot.codeHint')} {...field('token')}>
          <Input
            name="token"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            autoFocus
            data-testid="forgot-code"
            value={values.token}
            onChange={set('token')}
          />
        </Field>
        <Field label={t('forgot.newPassword')} required hint={t('forgot.passwordRule')} {...field('newPassword')}>
          <Input
            type={show.newPassword ? 'text' : 'password'}
            name="newPassword"
            autoComplete="new-password"
            data-testid="forgot-new-password"
            value={values.newPassword}
            onChange={set('newPassword')}
            contentAfter={toggle('newPassword')}
          />
        </Field>
        <Field label={t('forgot.confirmPassword')} required {...field('confirmPassword')}>
          <Input
            type={show.confirmPassword ? 'text' : 'password'}
            name="confirmPassword"
            autoComplete="new-password"
            data-testid="forgot-confirm-password"
            value={values.confirmPassword}
            onChange={set('confirmPassword')}
            contentAfter={toggle('confirmPassword')}
          />
        </Field>
        {submitButton(t('forgot.submit'), 'forgot-submit')}
        <div className={styles.row}>
          <Button appearance="transparent" size="small" disabled={busy} data-testid="forgot-resend" onClick={() => void sendCode()}>
            {t('forgot.resend')}
          </Button>
          <Button appearance="transparent" size="small" onClick={() => setStep('email')}>
            {t('forgot.otherEmail')}
          </Button>
        </div>
        {links}
      </form>
    </AuthLayout>
  );
}
