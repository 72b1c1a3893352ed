import type { Translation } from '../../../i18n/types';
import type en from './en';

const pt: Translation<typeof en> = {
  title: 'Campanhas de fluxo',
  search: 'Pesquisar campanhas de fluxo',
  add: 'Adicionar',
  empty: 'Nenhuma campanha de fluxo ainda',
  columns: { name: 'Nome', phrase: 'Frase', flow: 'Fluxo', connection: 'Conexão', status: 'Status', actions: 'Ações' },
  status: { active: 'Ativo', inactive: 'Desativado' },
  modal: {
    addTitle: 'Adicionar campanha de fluxo',
    editTitle: 'Editar campanha de fluxo',
    name: 'Nome',
    flow: 'Fluxo',
    connection: 'Conexão',
    pick: 'Escolha',
    phrase: 'Frase',
    phraseHint: 'Comparada sem maiúsculas, acentos ou espaços a mais.',
    contains: 'Também quando a mensagem contém a frase',
    active: 'Ativo',
    required: 'Obrigatório',
  },
  toasts: { saved: 'Campanha de fluxo salva.', deleted: 'Campanha de fluxo excluída.' },
  confirmDelete: { title: 'Excluir a campanha de fluxo {{name}}?', body: 'A frase deixa de iniciar o fluxo. Não pode ser desfeito.' },
};

export default pt;
