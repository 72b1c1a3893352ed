import type { Translation } from '../../../i18n/types';
import type en from './en';

const pt: Translation<typeof en> = {
  title: 'Agendamentos',
  search: 'Pesquisar agendamentos',
  add: 'Novo agendamento',
  empty: 'Nenhuma mensagem agendada neste mês.',
  planDisabled: 'Seu plano não inclui mensagens agendadas.',
  calendar: {
    previous: 'Mês anterior',
    next: 'Próximo mês',
    today: 'Hoje',
  },
  status: {
    PENDENTE: 'Pendente',
    AGENDADA: 'Enviando',
    ENVIADA: 'Enviada',
    ERRO: 'Erro de envio',
  },
  actions: { edit: 'Editar', view: 'Ver', delete: 'Excluir' },
  modal: {
    addTitle: 'Novo agendamento',
    editTitle: 'Editar agendamento',
    viewTitle: 'Agendamento',
    body: 'Mensagem',
    bodyHint: 'Variáveis como {{variables}} são preenchidas no envio.',
    contact: 'Contato',
    contactPlaceholder: 'Digite para buscar contatos',
    sendAt: 'Data de envio',
    attachment: 'Anexo (.png, .jpg, .jpeg)',
    chooseFile: 'Escolher imagem',
    removeFile: 'Remover anexo',
    sentAt: 'Enviada em {{date}}.',
    sendError: 'Esta mensagem não pôde ser enviada: {{reason}}',
    sendErrorRetry: 'Salvar novamente agenda uma nova tentativa.',
    adminOnly: 'Somente administradores podem alterar um agendamento.',
  },
  validation: {
    bodyTooShort: 'Mensagem muito curta',
    onlyPictures: 'Só é possível anexar arquivos .png, .jpg e .jpeg.',
  },
  confirmDelete: {
    title: 'Excluir este agendamento?',
    body: 'A mensagem para {{name}} não será enviada.',
  },
  toasts: { saved: 'Agendamento salvo.', deleted: 'Agendamento excluído.', mediaDeleted: 'Anexo removido.' },
};

export default pt;
