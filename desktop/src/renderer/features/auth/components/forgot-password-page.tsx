import { Text, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { AppLink } from '../../../components/app-link';
import { AuthLayout } from './auth-layout';

/**
 * /forgetpsw: until the reset by email (spec 02: email, token, new password) exists, the page says so and
 * who can help, instead of a placeholder.
 */
export default function ForgotPasswordPage() {
  const { t } = useTranslation('auth');
  return (
    <AuthLayout title={t('forgot.title')}>
      <Text align="center" style={{ color: tokens.colorNeutralForeground2 }} data-testid="forgot-not-configured">
        {t('forgot.notConfigured')}
      </Text>
      <Text align="center">
        <AppLink to="/login">{t('forgot.backToLogin')}</AppLink>
      </Text>
    </AuthLayout>
  );
}
