import type { Translation } from '../../../i18n/types';
import type en from './en';

const pt: Translation<typeof en> = {
  title: 'Tarefas',
  placeholder: 'Nova tarefa',
  add: 'Adicionar',
  save: 'Salvar',
  cancel: 'Cancelar',
  edit: 'Editar',
  remove: 'Remover',
  empty: 'Nada a fazer. Adicione uma tarefa acima.',
  created: 'Criada em {{date}}',
  updated: 'atualizada em {{date}}',
};

export default pt;
