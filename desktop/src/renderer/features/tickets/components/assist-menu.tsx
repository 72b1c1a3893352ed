import { useState } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  Spinner,
  Text,
  Tooltip,
} from '@fluentui/react-components';
import { Sparkle20Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { usePlanFlags } from '../../../api/company';
import { toastError } from '../../../api/errors';
import { useQuery } from '../../../api/query';
import { fetchAssistAvailability, suggestReply, summariseTicket } from '../api/tickets';

export interface AssistMenuProps {
  ticketId: number;
  /** The input cannot take a draft now (closed ticket, sending, recording). */
  disabled: boolean;
  /** The AI's draft goes into the input, for the agent to edit and send (never sent by itself). */
  onSuggestion: (text: string) => void;
}

/**
 * The prompt helping the agent: with a prompt on the ticket's queue or connection (or the company's
 * default), "Suggest a reply" drafts the next message into the input and "Summarise" shows a short
 * summary of the conversation. Shown only when the plan has AI and the server says a prompt applies.
 */
export function AssistMenu({ ticketId, disabled, onSuggestion }: AssistMenuProps) {
  const { t } = useTranslation('tickets');
  const plan = usePlanFlags();
  const availability = useQuery(['tickets', 'assist', ticketId], () => fetchAssistAvailability(ticketId), {
    silent: true,
    enabled: !!plan?.useOpenAi,
    staleTime: 60_000,
  });
  const [busy, setBusy] = useState<'suggest' | 'summary' | null>(null);
  const [summary, setSummary] = useState<string | null>(null);
  if (!availability.data?.available) return null;

  const run = async (kind: 'suggest' | 'summary') => {
    setBusy(kind);
    try {
      if (kind === 'suggest') onSuggestion(await suggestReply(ticketId));
      else setSummary((await summariseTicket(ticketId)) || t('assist.nothingToSummarise'));
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(null);
    }
  };

  return (
    <>
      <Menu>
        <MenuTrigger disableButtonEnhancement>
          <Tooltip content={t('assist.label')} relationship="label">
            <Button appearance="subtle" icon={busy ? <Spinner size="extra-tiny" /> : <Sparkle20Regular />} disabled={busy !== null} data-testid="assist-menu" />
          </Tooltip>
        </MenuTrigger>
        <MenuPopover>
          <MenuList>
            <MenuItem disabled={disabled} data-testid="assist-suggest" onClick={() => void run('suggest')}>
              {t('assist.suggest')}
            </MenuItem>
            <MenuItem data-testid="assist-summarise" onClick={() => void run('summary')}>
              {t('assist.summarise')}
            </MenuItem>
          </MenuList>
        </MenuPopover>
      </Menu>
      {summary !== null ? (
        <Dialog open onOpenChange={(_, d) => !d.open && setSummary(null)}>
          <DialogSurface style={{ maxWidth: 560 }} data-testid="assist-summary">
            <DialogBody>
              <DialogTitle>{t('assist.summaryTitle')}</DialogTitle>
              <DialogContent>
                <Text style={{ whiteSpace: 'pre-wrap' }} data-testid="assist-summary-text">
                  {summary}
                </Text>
              </DialogContent>
              <DialogActions>
                <Button appearance="primary" onClick={() => setSummary(null)}>
                  {t('actions.close', { ns: 'common' })}
                </Button>
              </DialogActions>
            </DialogBody>
          </DialogSurface>
        </Dialog>
      ) : null}
    </>
  );
}
