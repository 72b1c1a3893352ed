import { Badge, type BadgeProps } from '@fluentui/react-components';
import type { CampaignStatus } from '@atrium/shared';
import { useTranslation } from 'react-i18next';

const COLORS: Record<CampaignStatus, BadgeProps['color']> = {
  INATIVA: 'subtle',
  PROGRAMADA: 'informative',
  EM_ANDAMENTO: 'brand',
  CANCELADA: 'warning',
  FINALIZADA: 'success',
};

/** A campaign's status as a coloured badge in the user's language. */
export function CampaignStatusBadge({ status, testId }: { status: CampaignStatus; testId?: string }) {
  const { t } = useTranslation('campaigns');
  return (
    <Badge appearance="tint" color={COLORS[status]} data-testid={testId} data-status={status}>
      {t(`status.${status}`)}
    </Badge>
  );
}
