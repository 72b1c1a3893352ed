import { makeStyles, tokens, Tooltip } from '@fluentui/react-components';
import { Bot20Regular, BranchFork20Regular, ChatBubblesQuestion20Regular, Flowchart20Regular, Globe20Regular } from '@fluentui/react-icons';
import type { QueueIntegrationType } from '@atrium/shared';
import { filledWith } from '../../../lib/color';

const useStyles = makeStyles({
  logo: {
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    width: '32px',
    height: '32px',
    borderRadius: tokens.borderRadiusMedium,
  },
});

/** Each type's mark and colour (Typebot blue, n8n coral, Dialogflow orange...). */
const LOGOS: Record<QueueIntegrationType, { Icon: typeof Bot20Regular; color: string; label: string }> = {
  typebot: { Icon: Bot20Regular, color: '#0042DA', label: 'Typebot' },
  n8n: { Icon: BranchFork20Regular, color: '#EA4B71', label: 'n8n' },
  webhook: { Icon: Globe20Regular, color: '#5B5FC7', label: 'Webhook' },
  dialogflow: { Icon: ChatBubblesQuestion20Regular, color: '#E8710A', label: 'Dialogflow' },
  flowbuilder: { Icon: Flowchart20Regular, color: '#107C10', label: 'Flowbuilder' },
};

export const typeLabel = (type: QueueIntegrationType) => LOGOS[type].label;

export function TypeLogo({ type, testId }: { type: QueueIntegrationType; testId?: string }) {
  const styles = useStyles();
  const { Icon, color, label } = LOGOS[type];
  return (
    <Tooltip content={label} relationship="label">
      <span className={styles.logo} style={filledWith(color)} data-testid={testId} data-type={type}>
        <Icon />
      </span>
    </Tooltip>
  );
}
