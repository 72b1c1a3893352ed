import { Text, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';

export function Copyright() {
  const { t } = useTranslation();
  return (
    <Text size={200} align="center" style={{ color: tokens.colorNeutralForeground3 }}>
      {t('app.copyright', { year: new Date().getFullYear() })}
    </Text>
  );
}
