import type { Translation } from '../../../i18n/types';
import type en from './en';

const pt: Translation<typeof en> = {
  title: 'Filas & Chatbot',
  add: 'Adicionar fila',
  empty: 'Nenhuma fila cadastrada.',
  columns: { id: 'ID', name: 'Nome', color: 'Cor', order: 'Ordem', greeting: 'Mensagem de saudação', actions: 'Ações' },
  modal: {
    addTitle: 'Adicionar fila',
    editTitle: 'Editar fila',
    tabs: { data: 'Dados da fila', schedules: 'Horários de atendimento', options: 'Opções do chatbot' },
    name: 'Nome',
    color: 'Cor',
    colorPicker: 'Escolher uma cor',
    colorHint: 'Um código hexadecimal como #6264a7',
    greetingMessage: 'Mensagem de saudação',
    greetingRequired: 'Obrigatória quando a empresa tem mais de uma fila',
    outOfHoursMessage: 'Mensagem de fora de expediente',
    orderQueue: 'Ordem (bot)',
    integration: 'Integração',
    prompt: 'Prompt',
    none: 'Nenhum',
  },
  schedules: {
    weekday: 'Dia',
    start: 'Início',
    end: 'Fim',
    startOf: '{{day}} início',
    endOf: '{{day}} fim',
    invalid: 'Use HH:MM em todos os horários.',
    days: {
      monday: 'Segunda-feira',
      tuesday: 'Terça-feira',
      wednesday: 'Quarta-feira',
      thursday: 'Quinta-feira',
      friday: 'Sexta-feira',
      saturday: 'Sábado',
      sunday: 'Domingo',
    },
  },
  options: {
    saveQueueFirst: 'Salve a fila primeiro e abra-a novamente para montar o menu do chatbot.',
    empty: 'Nenhuma opção ainda: a fila responde sem menu.',
    add: 'Adicionar opção',
    addChild: 'Adicionar subopção',
    title: 'Título',
    message: 'Mensagem',
    key: 'Chave',
    unsaved: 'Não salva',
    noMessage: 'Sem mensagem',
    confirmDelete: { title: 'Excluir a opção {{title}}?', body: 'As subopções também são excluídas; as chaves seguintes sobem.' },
    toasts: { saved: 'Opção salva.', deleted: 'Opção excluída.' },
  },
  confirmDelete: {
    title: 'Excluir a fila {{name}}?',
    body: 'Os tickets continuam, sem fila. As opções do chatbot são excluídas.',
  },
  toasts: { saved: 'Fila salva com sucesso!', deleted: 'Fila excluída com sucesso!' },
};

export default pt;
