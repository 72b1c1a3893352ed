import type { ReactNode } from 'react';
import { makeStyles, Text, tokens } from '@fluentui/react-components';
import { DocumentDismiss24Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    justifyContent: 'center',
    textAlign: 'center',
    gap: tokens.spacingVerticalS,
    padding: tokens.spacingVerticalXXL,
    color: tokens.colorNeutralForeground3,
  },
  icon: { fontSize: '40px', color: tokens.colorNeutralForeground4 },
});

export interface EmptyStateProps {
  title?: ReactNode;
  description?: ReactNode;
  icon?: ReactNode;
  /** A button to create the first record, for example. */
  action?: ReactNode;
}

/** What a list shows when it has nothing. */
export function EmptyState({ title, description, icon, action }: EmptyStateProps) {
  const styles = useStyles();
  const { t } = useTranslation();
  return (
    <div className={styles.root} data-testid="empty-state">
      <span className={styles.icon}>{icon ?? <DocumentDismiss24Regular />}</span>
      <Text weight="semibold" size={400}>
        {title ?? t('empty.title')}
      </Text>
      {description ? <Text>{description}</Text> : null}
      {action}
    </div>
  );
}
