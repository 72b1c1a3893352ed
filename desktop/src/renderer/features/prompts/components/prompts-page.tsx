import { Badge, Text, Tooltip } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useQuery } from '../../../api/query';
import { CrudListPage, type Column } from '../../../components/list-kit';
import { PROMPTS_KEY, promptsApi, type Prompt } from '../api/prompts';
import { PromptDialog } from './prompt-dialog';
import { filledWith } from '../../../lib/color';

/** This month's AI use of the company (every prompt, automatic replies and the agents' help). */
function MonthUsage() {
  const { t, i18n } = useTranslation('prompts');
  const usage = useQuery([...PROMPTS_KEY, 'usage'], promptsApi.usage, { silent: true });
  const month = new Date().toISOString().slice(0, 7);
  const rows = (usage.data ?? []).filter((u) => u.month === month);
  if (usage.status !== 'success') return null;
  const number = new Intl.NumberFormat(i18n.language);
  const tokens = rows.reduce((sum, u) => sum + u.totalTokens, 0);
  const requests = rows.reduce((sum, u) => sum + u.requests, 0);
  return (
    <Tooltip content={t('usage.hint')} relationship="description">
      <Text size={200} data-testid="prompts-usage">
        {t('usage.month', { tokens: number.format(tokens), requests: number.format(requests) })}
      </Text>
    </Tooltip>
  );
}

/** /prompts (spec 02 "Prompts page", admins, plan flag useOpenAi): name, queue, maxTokens, edit and delete. */
export default function PromptsPage() {
  const { t } = useTranslation('prompts');
  const columns: Column<Prompt>[] = [
    { id: 'name', header: t('columns.name'), cell: (p) => <span data-testid={`prompt-name-${p.id}`}>{p.name}</span> },
    {
      id: 'queue',
      header: t('columns.queue'),
      cell: (p) =>
        p.queue ? (
          <Badge appearance="filled" style={filledWith(p.queue.color)} data-testid={`prompt-queue-${p.id}`}>
            {p.queue.name}
          </Badge>
        ) : (
          '—'
        ),
    },
    { id: 'maxTokens', header: t('columns.maxTokens'), cell: (p) => p.maxTokens },
  ];
  return (
    <CrudListPage<Prompt>
      namespace="prompts"
      queryKey={[...PROMPTS_KEY, 'page']}
      listKey={PROMPTS_KEY}
      api={promptsApi}
      testIds={{ page: 'prompts', row: 'prompt' }}
      columns={columns}
      realtime={{ resource: 'prompt' }}
      headerExtra={<MonthUsage />}
      deleteTitleValues={(p) => ({ name: p.name })}
      dialog={({ item, onClose }) => <PromptDialog prompt={item} onClose={onClose} />}
    />
  );
}
