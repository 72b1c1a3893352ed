import { Megaphone20Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { BellButton } from '../../../components/bell-button';

/** The announcements bell (GET /announcements/ and company-announcement events); filled in by this feature. */
export function AnnouncementsBell() {
  const { t } = useTranslation();
  return <BellButton label={t('layout.announcements')} icon={<Megaphone20Regular />} emptyText={t('layout.nothingHere')} />;
}
