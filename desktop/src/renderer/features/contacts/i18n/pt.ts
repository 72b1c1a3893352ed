import type { Translation } from '../../../i18n/types';
import type en from './en';

const pt: Translation<typeof en> = {
  title: 'Contatos',
  search: 'Pesquisar contatos',
  add: 'Adicionar contato',
  import: 'Importar .xlsx',
  export: 'Exportar CSV',
  empty: 'Nenhum contato encontrado.',
  onlyXlsx: 'Só é possível importar arquivos .xlsx.',
  columns: { picture: '', name: 'Nome', number: 'WhatsApp', email: 'E-mail', actions: 'Ações' },
  actions: { startTicket: 'Iniciar atendimento', edit: 'Editar', delete: 'Excluir' },
  modal: {
    addTitle: 'Adicionar contato',
    editTitle: 'Editar contato',
    name: 'Nome',
    number: 'Número do WhatsApp',
    email: 'E-mail',
    extraInfo: 'Informações adicionais',
    extraName: 'Campo',
    extraValue: 'Valor',
    addExtra: 'Adicionar campo',
    removeExtra: 'Remover campo',
  },
  importResult: {
    title: 'Resultado da importação',
    created_one: '{{count}} contato criado',
    created_other: '{{count}} contatos criados',
    errors_one: '{{count}} contato não importado',
    errors_other: '{{count}} contatos não importados',
    fields: {
      name: 'Nome: de 2 a 50 caracteres',
      number: 'Número do WhatsApp: de 8 a 50 dígitos',
      email: 'E-mail: endereço inválido (deixe vazio se não houver)',
      unknown: 'uma coluna tem um valor inválido',
    },
  },
  confirmDelete: {
    title: 'Excluir o contato {{name}}?',
    body: 'Todas as interações deste contato serão perdidas.',
  },
  ticketOwned: 'Este contato já está em atendimento com {{user}} na fila {{queue}}.',
  noQueue: 'sem fila',
  toasts: { saved: 'Contato salvo.', deleted: 'Contato excluído.' },
};

export default pt;
