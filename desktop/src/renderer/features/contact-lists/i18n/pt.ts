import type { Translation } from '../../../i18n/types';
import type en from './en';

const pt: Translation<typeof en> = {
  title: 'Listas de contatos',
  search: 'Pesquisar listas',
  add: 'Adicionar lista',
  empty: 'Nenhuma lista de contatos ainda',
  columns: { name: 'Nome', contacts: 'Contatos', actions: 'Ações' },
  counts: {
    valid: '{{count}} no WhatsApp',
    invalid: '{{count}} fora do WhatsApp',
    unchecked: '{{count}} não verificados',
  },
  fromTag: 'De uma tag',
  sample: 'Planilha de exemplo',
  openItems: 'Abrir os contatos de {{name}}',
  dialog: { addTitle: 'Adicionar lista de contatos', editTitle: 'Editar lista de contatos', name: 'Nome' },
  toasts: { saved: 'Lista de contatos salva.', deleted: 'Lista de contatos excluída.' },
  confirmDelete: {
    title: 'Excluir a lista {{name}}?',
    body: 'Os contatos dela são excluídos junto. Campanhas que já enviaram mantêm o relatório.',
  },
  items: {
    title: 'Contatos da lista',
    search: 'Pesquisar contatos',
    add: 'Adicionar contato',
    empty: 'Nenhum contato nesta lista ainda. Adicione um ou importe uma planilha.',
    columns: { whatsapp: 'WhatsApp', name: 'Nome', number: 'Número', email: 'E-mail', actions: 'Ações' },
    dialog: { addTitle: 'Adicionar contato', editTitle: 'Editar contato', name: 'Nome', number: 'Número', email: 'E-mail' },
    toasts: { saved: 'Contato salvo.', deleted: 'Contato excluído.' },
    confirmDelete: { title: 'Excluir o contato {{name}}?', body: 'O contato sai desta lista. Isso não pode ser desfeito.' },
  },
  back: 'Voltar para as listas',
  valid: {
    yes: 'No WhatsApp',
    no: 'Fora do WhatsApp',
    unchecked: 'Ainda não verificado',
  },
  import: {
    button: 'Importar planilha',
    hint: '.xls ou .xlsx com as colunas Nome, Número e Email (em português, inglês ou espanhol; maiúsculas e acentos não importam).',
    uploading: 'Enviando a planilha…',
    running: 'Importando: {{processed}} de {{total}} linhas',
    pending: 'Importação na fila…',
    done: 'Importação de {{fileName}} concluída: {{created}} adicionados, {{duplicates}} duplicados ignorados, {{invalid}} linhas inválidas.',
    failed: 'A importação de {{fileName}} falhou: {{reason}}',
    invalidReport: 'Baixar as linhas inválidas',
    wrongType: 'Só planilhas .xls e .xlsx podem ser importadas.',
    reasons: {
      ERR_SPREADSHEET_UNREADABLE: 'o arquivo não é uma planilha legível, ou não tem coluna de número.',
      ERR_PAYLOAD_TOO_LARGE: 'a planilha tem linhas demais.',
      other: 'um erro inesperado.',
    },
  },
  check: {
    button: 'Verificar números de novo',
    checking: 'Verificando os números no WhatsApp: faltam {{unchecked}} (alguns por segundo, para o número não ser bloqueado).',
    noConnection: 'Nenhuma conexão está conectada: {{unchecked}} números ainda não foram verificados. Serão assim que uma conexão estiver ativa.',
    started: 'Os números estão sendo verificados de novo.',
  },
};

export default pt;
