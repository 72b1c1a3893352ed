import { Badge } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { CrudListPage, type Column } from '../../../components/list-kit';
import { PROMPTS_KEY, promptsApi, type Prompt } from '../api/prompts';
import { PromptDialog } from './prompt-dialog';

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
          <Badge appearance="tint" style={{ backgroundColor: p.queue.color }} data-testid={`prompt-queue-${p.id}`}>
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
      deleteTitleValues={(p) => ({ name: p.name })}
      dialog={({ item, onClose }) => <PromptDialog prompt={item} onClose={onClose} />}
    />
  );
}
