import { useState } from 'react';
import {
  Button,
  Link as FluentLink,
  ProgressBar,
  Select,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { ArrowDownload20Regular } from '@fluentui/react-icons';
import { CAMPAIGN_REPORT_FILTERS, type CampaignCounts, type CampaignEvent, type CampaignReportFilter } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { toastError } from '../../../api/errors';
import { queryClient, usePagedQuery, useQuery } from '../../../api/query';
import { useRealtimeEvent } from '../../../api/socket';
import { DataTable, InfiniteList, SearchBox, useSearch, type Column } from '../../../components/list-kit';
import { PageContainer } from '../../../components/page-container';
import { PageHeader } from '../../../components/page-header';
import { formatDateTime } from '../../../i18n/format';
import { CAMPAIGNS_KEY, campaignsApi, type Campaign, type CampaignReport, type CampaignShipping } from '../api/campaigns';
import { CampaignStatusBadge } from './campaign-status';

const useStyles = makeStyles({
  page: { overflowY: 'auto' },
  card: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusLarge,
    boxShadow: tokens.shadow4,
    padding: tokens.spacingHorizontalL,
  },
  tiles: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(110px, 1fr))', gap: tokens.spacingHorizontalS },
  tile: {
    display: 'flex',
    flexDirection: 'column',
    padding: tokens.spacingHorizontalS,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
  },
  tileLabel: { color: tokens.colorNeutralForeground3 },
  dates: { display: 'flex', flexWrap: 'wrap', columnGap: tokens.spacingHorizontalL, color: tokens.colorNeutralForeground3 },
  chart: { display: 'grid', gridTemplateColumns: 'minmax(70px, max-content) 1fr minmax(40px, max-content)', gap: tokens.spacingVerticalXS, alignItems: 'center' },
  track: { height: '14px', borderRadius: tokens.borderRadiusMedium, backgroundColor: tokens.colorNeutralBackground4, overflow: 'hidden' },
  bar: { height: '100%', borderRadius: tokens.borderRadiusMedium, transitionProperty: 'width', transitionDuration: tokens.durationNormal },
  rows: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, minHeight: '320px' },
  filters: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  scroller: { maxHeight: '60vh' },
  ellipsis: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', display: 'block' },
  error: { color: tokens.colorPaletteRedForeground1 },
});

const BARS: { key: keyof CampaignCounts; color: string }[] = [
  { key: 'sent', color: tokens.colorBrandBackground },
  { key: 'delivered', color: tokens.colorPaletteBlueBorderActive },
  { key: 'read', color: tokens.colorPaletteGreenBackground3 },
  { key: 'replied', color: tokens.colorPaletteLightGreenBorderActive },
  { key: 'failed', color: tokens.colorPaletteRedBackground3 },
  { key: 'pending', color: tokens.colorNeutralForeground3 },
];

/** The report's chart: how many of the contacts got how far, as bars of the total. */
function CountsChart({ counts }: { counts: CampaignCounts }) {
  const styles = useStyles();
  const { t } = useTranslation('campaigns');
  const of = (n: number) => (counts.total > 0 ? Math.round((n / counts.total) * 1000) / 10 : 0);
  return (
    <div className={styles.chart} role="img" aria-label={t('report.chart')} data-testid="campaign-report-chart">
      {BARS.map(({ key, color }) => (
        <div key={key} style={{ display: 'contents' }}>
          <Text size={200}>{t(`report.${key}`)}</Text>
          <div className={styles.track}>
            <div className={styles.bar} style={{ width: `${of(counts[key])}%`, backgroundColor: color }} data-testid={`campaign-report-bar-${key}`} />
          </div>
          <Text size={200}>{of(counts[key])}%</Text>
        </div>
      ))}
    </div>
  );
}

/** How far a row got: failed, pending, or the furthest of sent, delivered, read and replied. */
const stageOf = (row: CampaignShipping): CampaignReportFilter =>
  row.status !== 'sent' ? row.status : row.repliedAt ? 'replied' : row.readAt ? 'read' : row.deliveredAt ? 'delivered' : 'sent';
const whenOf = (row: CampaignShipping) => row.repliedAt ?? row.readAt ?? row.deliveredAt ?? row.sentAt ?? row.plannedAt;

/**
 * /campaign/:campaignId/report: the counts (total, pending, sent, failed, delivered, read, replied), a
 * progress bar and a chart, following the campaign live (its throttled realtime counts), then the contacts
 * filterable by state and exportable as CSV.
 */
export default function CampaignReportPage() {
  const styles = useStyles();
  const { t } = useTranslation('campaigns');
  const campaignId = Number(useParams().campaignId);
  const campaign = useQuery<Campaign>([...CAMPAIGNS_KEY, 'one', campaignId], () => campaignsApi.get(campaignId));
  const report = useQuery<CampaignReport>([...CAMPAIGNS_KEY, 'report', campaignId], () => campaignsApi.report(campaignId));
  const [filter, setFilter] = useState<CampaignReportFilter | ''>('');
  const { search, setSearch, searchParam } = useSearch();
  const rowsKey = [...CAMPAIGNS_KEY, 'shipping', campaignId] as const;
  const rows = usePagedQuery<CampaignShipping>([...rowsKey, { filter, searchParam }], (page) =>
    campaignsApi.shipping(campaignId, filter, searchParam, page),
  );

  // Progress comes as counts and status at most once a second: patch the report, re-read the rows shown.
  useRealtimeEvent<CampaignEvent>('campaign', (event) => {
    if (event.action === 'delete' || event.record.id !== campaignId) return;
    const { status, completedAt, counts } = event.record;
    report.setData((old) => (old ? { ...old, ...counts, status, completedAt } : old));
    void queryClient.invalidateQueries({ queryKey: rowsKey });
    if ('name' in event.record) campaign.setData(event.record);
  });

  const counts = report.data;
  const done = counts ? counts.sent + counts.failed : 0;
  const percent = counts && counts.total > 0 ? Math.floor((done / counts.total) * 100) : 0;

  const columns: Column<CampaignShipping>[] = [
    { id: 'name', header: t('report.columns.name'), cell: (r) => <span className={styles.ellipsis}>{r.name}</span> },
    { id: 'number', header: t('report.columns.number'), width: 140, cell: (r) => r.number },
    {
      id: 'status',
      header: t('report.columns.status'),
      width: 110,
      cellTestId: (r) => `campaign-shipping-status-${r.id}`,
      cell: (r) => t(`report.rowStatus.${stageOf(r)}`),
    },
    { id: 'at', header: t('report.columns.at'), width: 130, secondary: true, cell: (r) => formatDateTime(whenOf(r)) },
    {
      id: 'message',
      header: t('report.columns.message'),
      secondary: true,
      cell: (r) =>
        r.error ? (
          <span className={`${styles.ellipsis} ${styles.error}`} title={r.error}>
            {r.error}
          </span>
        ) : (
          <span className={styles.ellipsis} title={r.message}>
            {r.message}
          </span>
        ),
    },
  ];

  return (
    <PageContainer className={styles.page}>
      <PageHeader
        title={campaign.data?.name ?? t('reportTitle')}
        subtitle={
          <FluentLink as="span">
            <Link to="/campaigns" data-testid="campaign-report-back">
              {t('report.back')}
            </Link>
          </FluentLink>
        }
        actions={counts ? <CampaignStatusBadge status={counts.status} testId="campaign-report-status" /> : undefined}
      />
      {counts ? (
        <section className={styles.card} data-testid="campaign-report-summary">
          <div className={styles.tiles}>
            {(['total', 'pending', 'sent', 'failed', 'delivered', 'read', 'replied'] as const).map((key) => (
              <div key={key} className={styles.tile}>
                <Text size={200} className={styles.tileLabel}>
                  {t(`report.${key}`)}
                </Text>
                <Text size={500} weight="semibold" data-testid={`campaign-report-${key}`}>
                  {counts[key]}
                </Text>
              </div>
            ))}
          </div>
          <div>
            <Text data-testid="campaign-report-percent" data-percent={percent}>
              {t('report.progress', { percent, done, total: counts.total })}
            </Text>
            <ProgressBar value={counts.total > 0 ? done / counts.total : 0} thickness="large" color={counts.failed > 0 ? 'warning' : 'brand'} />
          </div>
          <div className={styles.dates}>
            {counts.startedAt ? <Text size={200}>{t('report.startedAt', { at: formatDateTime(counts.startedAt) })}</Text> : null}
            {counts.completedAt ? <Text size={200}>{t('report.completedAt', { at: formatDateTime(counts.completedAt) })}</Text> : null}
            {counts.estimatedEndAt && !counts.completedAt ? (
              <Text size={200}>{t('report.estimatedEndAt', { at: formatDateTime(counts.estimatedEndAt) })}</Text>
            ) : null}
          </div>
          <CountsChart counts={counts} />
        </section>
      ) : null}
      <section className={styles.card}>
        <div className={styles.rows}>
          <div className={styles.filters}>
            <Select
              aria-label={t('report.filter')}
              value={filter}
              data-testid="campaign-report-filter"
              onChange={(_, d) => setFilter(d.value as CampaignReportFilter | '')}
            >
              <option value="">{t('report.all')}</option>
              {CAMPAIGN_REPORT_FILTERS.map((f) => (
                <option key={f} value={f}>
                  {t(`report.rowStatus.${f}`)}
                </option>
              ))}
            </Select>
            <SearchBox value={search} onChange={setSearch} label={t('report.search')} testId="campaign-report-search" />
            <Button
              icon={<ArrowDownload20Regular />}
              data-testid="campaign-report-export"
              onClick={() => campaignsApi.exportShipping(campaignId, filter, searchParam).catch(toastError)}
            >
              {t('report.export')}
            </Button>
          </div>
          <InfiniteList list={rows} emptyTitle={t('report.empty')} testId="campaign-report-scroller" className={styles.scroller}>
            <DataTable
              label={t('reportTitle')}
              rows={rows.items}
              columns={columns}
              rowKey={(r) => r.id}
              rowTestId={(r) => `campaign-shipping-row-${r.id}`}
              layout="fixed"
            />
          </InfiniteList>
        </div>
      </section>
    </PageContainer>
  );
}
