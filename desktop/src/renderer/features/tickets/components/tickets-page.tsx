import { useEffect, useState } from 'react';
import { makeStyles, mergeClasses, Tab, TabList, Text, tokens } from '@fluentui/react-components';
import { ChatMultiple48Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import { PageContainer } from '../../../components/page-container';
import { PageHeader } from '../../../components/page-header';
import { useWindowWidth } from '../../../hooks/use-window-width';
import { Conversation } from './conversation';
import { TicketsManager } from './tickets-manager';

/** Below this width the list and the conversation are two panes, one shown at a time. */
export const WIDE_MIN = 600;
/** The panel classes set a display, which outranks the hidden attribute's. */
const HIDDEN = { display: 'none' } as const;

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
  const location = useLocation();
  const width = useWindowWidth();
  const wide = width >= WIDE_MIN;
  const [narrowTab, setNarrowTab] = useState<'list' | 'attendance'>(ticketId ? 'attendance' : 'list');
  // Every opening shows the conversation, also of the ticket already selected (a new navigation, same path).
  useEffect(() => {
    if (ticketId) setNarrowTab('attendance');
  }, [ticketId, location.key]);
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
          <div className={mergeClasses(styles.panel, styles.list)}>
            <TicketsManager selectedUuid={ticketId} />
          </div>
          <div className={mergeClasses(styles.panel, styles.chat)}>{conversation}</div>
        </div>
      </PageContainer>
    );
  }
  return (
    <PageContainer className={styles.page}>
      <PageHeader title={t('title')} />
      <div className={mergeClasses(styles.root, styles.narrow)}>
        <TabList selectedValue={showing} onTabSelect={(_, d) => setNarrowTab(d.value as 'list' | 'attendance')}>
          <Tab value="list" data-testid="tickets-pane-list">
            {t('tabs.list')}
          </Tab>
          <Tab value="attendance" disabled={!ticketId} data-testid="tickets-pane-attendance">
            {t('tabs.attendance')}
          </Tab>
        </TabList>
        {/* Both stay mounted, so switching panes keeps the list's place and the text being typed. */}
        <div className={mergeClasses(styles.panel, styles.full)} hidden={showing !== 'list'} style={showing !== 'list' ? HIDDEN : undefined} data-testid="tickets-list-pane">
          <TicketsManager selectedUuid={ticketId} />
        </div>
        {ticketId ? (
          <div className={mergeClasses(styles.panel, styles.full)} hidden={showing !== 'attendance'} style={showing !== 'attendance' ? HIDDEN : undefined} data-testid="tickets-conversation-pane">
            {conversation}
          </div>
        ) : null}
      </div>
    </PageContainer>
  );
}
