import type { Translation } from '../../../i18n/types';
import type en from './en';

const pt: Translation<typeof en> = {
  title: 'Lista de arquivos',
  search: 'Pesquisar listas de arquivos',
  add: 'Adicionar',
  empty: 'Nenhuma lista de arquivos ainda',
  columns: { name: 'Nome', actions: 'Ações' },
  fileCount_one: '{{count}} arquivo',
  fileCount_other: '{{count}} arquivos',
  dialog: {
    addTitle: 'Adicionar lista de arquivos',
    editTitle: 'Editar lista de arquivos',
    name: 'Nome',
    message: 'Mensagem',
    options: 'Arquivos',
    addOption: 'Adicionar arquivo',
    noOptions: 'Nenhum arquivo nesta lista ainda.',
    optionName: 'Nome do arquivo',
    optionNameRequired: 'Todo arquivo precisa de um nome.',
    chooseFile: 'Escolher arquivo',
    replaceFile: 'Trocar',
    removeFile: 'Remover o arquivo',
    removeOption: 'Remover este item',
    noFile: 'Sem arquivo',
    uploading: 'Enviando… {{percent}}%',
  },
  invalidFile: 'Este tipo de arquivo não é aceito, ou passa de {{max}} MB.',
  toasts: { saved: 'Lista de arquivos salva.', deleted: 'Arquivos excluídos.' },
  confirmDelete: { title: 'Excluir {{name}}?', body: 'A lista e seus arquivos serão removidos. Esta ação não pode ser desfeita.' },
};

export default pt;
