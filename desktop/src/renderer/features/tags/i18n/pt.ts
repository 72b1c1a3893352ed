import type { Translation } from '../../../i18n/types';
import type en from './en';

const pt: Translation<typeof en> = {
  title: 'Tags',
  search: 'Pesquisar tags',
  add: 'Adicionar tag',
  empty: 'Nenhuma tag ainda',
  columns: { name: 'Nome', tickets: 'Tickets', actions: 'Ações' },
  kanbanBadge: 'Kanban',
  modal: {
    addTitle: 'Adicionar tag',
    editTitle: 'Editar tag',
    name: 'Nome',
    color: 'Cor',
    colorPicker: 'Escolher uma cor',
    kanban: 'Coluna do kanban',
    kanbanHint: 'Os tickets com esta tag aparecem numa coluna própria no kanban.',
  },
  toasts: { saved: 'Tag salva com sucesso.', deleted: 'Tag excluída com sucesso.' },
  confirmDelete: {
    title: 'Excluir a tag {{name}}?',
    body: 'A tag sai de todos os tickets que a têm. Esta ação não pode ser desfeita.',
  },
};

export default pt;
