import type { Translation } from '../../../i18n/types';
import type en from './en';

const pt: Translation<typeof en> = {
  title: 'Chat interno',
  tabs: { chats: 'Chats', messages: 'Mensagens' },
  list: {
    new: 'Novo chat',
    empty: 'Nenhum chat ainda.',
    emptyHint: 'Comece um com um colega.',
    unread: '{{count}} não lidas',
  },
  conversation: {
    pick: 'Escolha um chat para ler as mensagens.',
    empty: 'Nenhuma mensagem ainda. Diga olá!',
    loadingOlder: 'Carregando mensagens anteriores…',
    you: 'Você',
    edit: 'Editar chat',
    delete: 'Excluir chat',
    back: 'Voltar aos chats',
    participants: 'Participantes: {{names}}',
    attachment: 'Anexo',
    openAttachment: 'Abrir {{name}}',
  },
  composer: {
    placeholder: 'Digite uma mensagem',
    send: 'Enviar',
    attach: 'Anexar arquivo',
    removeFile: 'Remover {{name}}',
  },
  dialog: {
    addTitle: 'Novo chat',
    editTitle: 'Editar chat',
    name: 'Título',
    users: 'Participantes',
    search: 'Filtrar usuários',
    noUsers: 'Não há outros usuários nesta empresa.',
    titleRequired: 'Dê um título ao chat.',
    usersRequired: 'Escolha ao menos um participante.',
  },
  confirmDelete: {
    title: 'Excluir este chat?',
    body: 'O chat "{{title}}" e todas as suas mensagens serão excluídos para todos.',
  },
  bell: {
    title: 'Chat interno',
    empty: 'Nenhuma mensagem de chat não lida.',
    openAll: 'Abrir o chat interno',
  },
  notification: {
    title: '{{chat}}',
    body: '{{sender}}: {{text}}',
    file: '📎 {{name}}',
  },
  toasts: {
    created: 'Chat criado.',
    saved: 'Chat salvo.',
    deleted: 'Chat excluído.',
  },
  noPlan: 'Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.',
};

export default pt;
