import type { Translation } from '../../../i18n/types';
import type en from './en';

const pt: Translation<typeof en> = {
  title: 'Informativos',
  search: 'Pesquisar',
  add: 'Adicionar informativo',
  empty: 'Nenhum informativo ainda.',
  superOnly: 'Somente super usuários podem gerenciar informativos.',
  noMedia: 'Sem anexo',
  columns: { title: 'Título', priority: 'Prioridade', mediaName: 'Anexo', status: 'Status', actions: 'Ações' },
  priorities: { high: 'Alta', medium: 'Média', low: 'Baixa' },
  status: { active: 'Ativo', inactive: 'Inativo' },
  modal: { addTitle: 'Novo informativo', editTitle: 'Editar informativo' },
  fields: {
    title: 'Título',
    text: 'Texto',
    priority: 'Prioridade',
    attachment: 'Imagem (png, jpg, jpeg)',
    attach: 'Anexar imagem',
    removeAttachment: 'Remover imagem',
  },
  invalidFile: 'Escolha uma imagem png, jpg ou jpeg de no máximo {{max}} MB.',
  confirmDelete: { title: 'Excluir "{{title}}"?', body: 'O informativo some para todas as empresas. Esta ação não pode ser desfeita.' },
  toasts: { saved: 'Informativo salvo com sucesso.', deleted: 'Informativo excluído com sucesso.' },
  bell: { empty: 'Nenhum informativo.', hasImage: 'Tem uma imagem' },
};

export default pt;
