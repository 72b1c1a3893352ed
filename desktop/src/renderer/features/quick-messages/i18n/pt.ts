import type { Translation } from '../../../i18n/types';
import type en from './en';

const pt: Translation<typeof en> = {
  title: 'Respostas rápidas',
  search: 'Pesquisar respostas rápidas',
  add: 'Adicionar',
  empty: 'Nenhuma resposta rápida ainda',
  columns: { shortcode: 'Atalho', attachment: 'Anexo', actions: 'Ações' },
  noMedia: 'Nenhum',
  shared: 'Global',
  inactive: 'Inativa',
  modal: {
    addTitle: 'Adicionar resposta rápida',
    editTitle: 'Editar resposta rápida',
    shortcode: 'Atalho',
    shortcodeHint: 'Digite / e esta palavra numa conversa para usá-la.',
    message: 'Mensagem',
    messageHint: 'Variáveis: {{variables}}.',
    geral: 'Compartilhada com toda a empresa',
    status: 'Ativa (sugerida com / nas conversas)',
    attachment: 'Anexo',
    attach: 'Anexar arquivo',
    removeAttachment: 'Remover o anexo',
  },
  invalidFile: 'Este tipo de arquivo não pode ser anexado, ou passa de {{max}} MB.',
  toasts: { saved: 'Resposta rápida salva.', deleted: 'Resposta rápida excluída.' },
  confirmDelete: { title: 'Excluir {{shortcode}}?', body: 'Esta ação não pode ser desfeita.' },
};

export default pt;
