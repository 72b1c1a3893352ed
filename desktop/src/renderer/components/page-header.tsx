import type { ReactNode } from 'react';
import { makeStyles, Text, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  root: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM, flexWrap: 'wrap', minHeight: '40px' },
  titles: { display: 'flex', flexDirection: 'column', flex: 1, minWidth: '200px' },
  actions: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
});

export interface PageHeaderProps {
  title: ReactNode;
  subtitle?: ReactNode;
  /** Buttons and search boxes on the right. */
  actions?: ReactNode;
}

/** A page's title row: title (h1), optional subtitle, actions on the right. */
export function PageHeader({ title, subtitle, actions }: PageHeaderProps) {
  const styles = useStyles();
  return (
    <header className={styles.root}>
      <div className={styles.titles}>
        <Text as="h1" size={600} weight="semibold" style={{ margin: 0 }}>
          {title}
        </Text>
        {subtitle ? (
          <Text size={300} style={{ color: tokens.colorNeutralForeground3 }}>
            {subtitle}
          </Text>
        ) : null}
      </div>
      {actions ? <div className={styles.actions}>{actions}</div> : null}
    </header>
  );
}
