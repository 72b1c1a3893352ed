import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Spinner, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useQuery } from '../../../api/query';
import { flowsApi } from '../api/flows';

const useStyles = makeStyles({
  run: { display: 'flex', flexDirection: 'column', gap: '2px', paddingBlock: tokens.spacingVerticalS, borderBottom: `1px solid ${tokens.colorNeutralStroke2}` },
  step: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200, color: tokens.colorNeutralForeground2 },
  list: { maxHeight: '60vh', overflowY: 'auto' },
});

/**
 * The flows that ran on a ticket, each with its steps (node, outcome, time): what the conversation view
 * shows admins (GET /flowbuilder/log/{ticketId}). Filled into the tickets feature's `flowLogDialog` slot.
 */
export function FlowLogDialog({ ticketId, onClose }: { ticketId: number; onClose: () => void }) {
  const styles = useStyles();
  const { t, i18n } = useTranslation('flowbuilder');
  const runs = useQuery(['flowbuilder', 'log', ticketId], () => flowsApi.log(ticketId));
  const time = (at: string) => new Date(at).toLocaleTimeString(i18n.language);
  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface data-testid="flow-log-dialog">
        <DialogBody>
          <DialogTitle>{t('log.title')}</DialogTitle>
          <DialogContent className={styles.list}>
            {runs.isLoading ? <Spinner size="small" /> : null}
            {runs.data?.length === 0 ? <Text>{t('log.empty')}</Text> : null}
            {runs.data?.map((run) => (
              <div key={run.id} className={styles.run} data-testid={`flow-log-run-${run.id}`}>
                <Text weight="semibold">
                  {run.flowName ?? t('log.deleted')} · v{run.version} · {t(`log.triggers.${run.trigger}`)} · {t(`test.status.${run.status}`)}
                </Text>
                {run.steps.map((step, i) => (
                  <span key={i} className={styles.step}>
                    {time(step.at)} {t(`types.${step.nodeType}`, { defaultValue: step.nodeType })} {step.nodeId.slice(0, 6)} → {step.outcome}
                    {step.detail ? ` (${step.detail})` : ''}
                  </span>
                ))}
              </div>
            ))}
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t('actions.close', { ns: 'common' })}</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
