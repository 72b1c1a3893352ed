import { Text, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { AppLink } from '../../../components/app-link';
import { AuthLayout } from './auth-layout';

/** /forgetpsw: the password reset flow of spec 02 (email, token, new password) goes here. */
export default function ForgotPasswordPage() {
  const { t } = useTranslation('auth');
  const { t: tc } = useTranslation();
  return (
    <AuthLayout title={t('forgot.title')}>
      <Text align="center" style={{ color: tokens.colorNeutralForeground3 }}>
        {tc('placeholder.body')}
      </Text>
      <Text align="center">
        <AppLink to="/login">{t('forgot.backToLogin')}</AppLink>
      </Text>
    </AuthLayout>
  );
}
