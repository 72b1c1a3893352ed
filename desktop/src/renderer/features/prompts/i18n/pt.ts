/** Strings of the prompts feature (namespace 'prompts'): useTranslation('prompts'). */
const pt = {
  title: 'Prompts Open.Ai',
  search: 'Buscar prompts',
  add: 'Adicionar prompt',
  empty: 'Nenhum prompt ainda',
  columns: { name: 'Nome', queue: 'Setor', maxTokens: 'Máx. tokens', actions: 'Ações' },
  dialog: {
    addTitle: 'Adicionar prompt',
    editTitle: 'Editar prompt',
    name: 'Nome',
    prompt: 'Prompt',
    promptHint: 'O que o assistente sabe e como responde (mínimo de 50 caracteres).',
    model: 'Modelo',
    modelRetiring: '{{label}} (descontinuado em {{date}})',
    retires: 'O provedor descontinua este modelo em {{date}}: escolha outro.',
    apiKey: 'Chave de API',
    apiKeyKept: 'Uma chave terminada em {{last4}} está salva; deixe vazio para mantê-la.',
    queue: 'Setor (transferência)',
    chooseQueue: 'Escolha um setor',
    queueRequired: 'Escolha o setor para onde a conversa vai.',
    temperature: 'Temperatura: {{value}}',
    maxTokens: 'Máx. de tokens na resposta',
    maxMessages: 'Máx. de mensagens no histórico',
    handoffHint: 'Quando o assistente transfere a conversa, o ticket aguarda uma pessoa neste setor.',
  },
  usage: { month: 'Este mês: {{tokens}} tokens em {{requests}} requisições', hint: "Respostas automáticas, áudios e as sugestões e resumos dos atendentes, de todos os prompts da empresa." },
  toasts: { saved: 'Prompt salvo.', deleted: 'Prompt excluído.' },
  confirmDelete: { title: 'Excluir {{name}}?', body: 'O prompt será removido. Esta ação não pode ser desfeita.' },
};

export default pt;
