import type { Translation } from '../../../i18n/types';
import type en from './en';

const pt: Translation<typeof en> = {
  title: 'Usuários',
  search: 'Pesquisar usuários',
  add: 'Adicionar usuário',
  empty: 'Nenhum usuário encontrado.',
  columns: { id: 'ID', name: 'Nome', email: 'E-mail', profile: 'Perfil', actions: 'Ações' },
  fields: {
    name: 'Nome',
    email: 'E-mail',
    password: 'Senha',
    passwordHint: 'Deixe em branco para manter a senha atual',
    profile: 'Perfil',
    queues: 'Filas',
    connection: 'Conexão padrão',
    noConnection: 'Nenhuma',
    allTicket: 'Ver chamados sem fila',
    language: 'Idioma',
  },
  profiles: { admin: 'Administrador', user: 'Usuário' },
  allTicket: { enabled: 'Habilitado', desabled: 'Desabilitado' },
  modal: { addTitle: 'Adicionar usuário', editTitle: 'Editar usuário' },
  confirmDelete: {
    title: 'Excluir o usuário {{name}}?',
    body: 'Os chamados abertos deste usuário voltam para pendentes.',
  },
  toasts: { saved: 'Usuário salvo com sucesso.', deleted: 'Usuário excluído com sucesso.', profileSaved: 'Perfil salvo.' },
};

export default pt;
