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
  sessions: {
    title: 'Sessões',
    allowed_one: 'Sua empresa permite uma sessão por usuário: entrar em outro lugar encerra esta.',
    allowed_other: 'Sua empresa permite {{count}} sessões por usuário ao mesmo tempo; entrar em mais uma encerra a usada há mais tempo.',
    current: 'Este dispositivo',
    lastUsed: 'Usada por último em {{at}}',
    desktop: 'Aplicativo Atrium',
    on: '{{app}} no {{os}}',
    unknownBrowser: 'Navegador',
    end: 'Encerrar',
    ended: 'Sessão encerrada.',
  },
  toasts: { saved: 'Usuário salvo com sucesso.', deleted: 'Usuário excluído com sucesso.', profileSaved: 'Perfil salvo.' },
};

export default pt;
