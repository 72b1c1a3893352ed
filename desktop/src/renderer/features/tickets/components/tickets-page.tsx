import { useEffect, useState } from 'react';
import { makeStyles, Tab, TabList, Text, tokens } from '@fluentui/react-components';
import { ChatMultiple48Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { PageContainer } from '../../../components/page-container';
import { PageHeader } from '../../../components/page-header';
import { useWindowWidth } from '../../../hooks/use-window-width';
import { Conversation } from './conversation';
import { TicketsManager } from './tickets-manager';

/** Below this width the list and the conversation are two tabs. */
const WIDE_MIN = 900;

const useStyles = makeStyles({
  page: { padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`, gap: tokens.spacingVerticalS },
  root: {
    display: 'flex',
    flex: 1,
    minHeight: 0,
    gap: tokens.spacingHorizontalM,
  },
  narrow: { flexDirection: 'column', gap: tokens.spacingVerticalS },
  panel: {
    minHeight: 0,
    minWidth: 0,
    overflow: 'hidden',
    borderRadius: tokens.borderRadiusLarge,
    boxShadow: tokens.shadow4,
    backgroundColor: tokens.colorNeutralBackground1,
    display: 'flex',
    flexDirection: 'column',
  },
  list: { flex: '1 1 33.333%' },
  chat: { flex: '2 1 66.666%' },
  full: { flex: 1 },
  welcome: {
    flex: 1,
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    justifyContent: 'center',
    gap: tokens.spacingVerticalS,
    color: tokens.colorNeutralForeground3,
    backgroundColor: tokens.colorNeutralBackground2,
  },
});

/** /tickets/:ticketId? (the segment is the ticket uuid). */
export default function TicketsPage() {
  const styles = useStyles();
  const { t } = useTranslation('tickets');
  const { ticketId } = useParams();
  const navigate = useNavigate();
  const width = useWindowWidth();
  const wide = width >= WIDE_MIN;
  const [narrowTab, setNarrowTab] = useState<'list' | 'attendance'>(ticketId ? 'attendance' : 'list');
  useEffect(() => {
    if (ticketId) setNarrowTab('attendance');
  }, [ticketId]);
  const showing = ticketId ? narrowTab : 'list';

  const conversation = ticketId ? (
    <Conversation key={ticketId} uuid={ticketId} onBack={wide ? undefined : () => void navigate('/tickets')} />
  ) : (
    <div className={styles.welcome} data-testid="tickets-welcome">
      <ChatMultiple48Regular />
      <Text size={500} weight="semibold">
        {t('welcome.title')}
      </Text>
      <Text>{t('welcome.text')}</Text>
    </div>
  );

  if (wide) {
    return (
      <PageContainer className={styles.page}>
        <PageHeader title={t('title')} />
        <div className={styles.root}>
          <div className={`${styles.panel} ${styles.list}`}>
            <TicketsManager selectedUuid={ticketId} />
          </div>
          <div className={`${styles.panel} ${styles.chat}`}>{conversation}</div>
        </div>
      </PageContainer>
    );
  }
  return (
    <PageContainer className={styles.page}>
      <PageHeader title={t('title')} />
      <div className={`${styles.root} ${styles.narrow}`}>
        <TabList selectedValue={showing} onTabSelect={(_, d) => setNarrowTab(d.value as 'list' | 'attendance')}>
          <Tab value="list">{t('tabs.list')}</Tab>
          <Tab value="attendance" disabled={!ticketId}>
            {t('tabs.attendance')}
          </Tab>
        </TabList>
        <div className={`${styles.panel} ${styles.full}`}>
          {showing === 'list' ? <TicketsManager selectedUuid={ticketId} /> : conversation}
        </div>
      </div>
    </PageContainer>
  );
}
