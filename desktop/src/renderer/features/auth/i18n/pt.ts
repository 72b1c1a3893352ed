import type { Translation } from '../../../i18n/types';
import type en from './en';

const pt: Translation<typeof en> = {
  login: {
    title: 'Entrar',
    subtitle: 'Bem-vindo de volta! Informe seus dados para continuar.',
    email: 'E-mail',
    password: 'Senha',
    submit: 'Entrar',
    forgot: 'Esqueceu a senha?',
    noAccount: 'Não tem uma conta?',
    signup: 'Cadastre-se',
    showPassword: 'Mostrar senha',
    hidePassword: 'Ocultar senha',
  },
  signup: {
    title: 'Crie sua conta',
    subtitle: 'Experimente grátis por 3 dias.',
    name: 'Nome',
    email: 'E-mail',
    phone: 'Telefone com (DDD)',
    password: 'Senha',
    plan: 'Plano',
    choosePlan: 'Escolha um plano',
    planOption: '{{name}} – Usuários: {{users}} – WhatsApp: {{connections}} – Filas: {{queues}} – {{value}}',
    submit: 'Cadastrar',
    haveAccount: 'Já tem uma conta?',
    login: 'Entrar',
    success: 'Cadastro realizado com sucesso! Entre para continuar.',
    plansError: 'Não foi possível carregar os planos.',
  },
  server: {
    button: 'Servidor',
    title: 'Endereço do servidor',
    label: 'Servidor',
    hint: 'O endereço do seu servidor Atrium, por exemplo https://desk.example.com',
    invalid: 'Informe um endereço http(s) como https://desk.example.com',
  },
  forgot: {
    title: 'Redefinir senha',
    backToLogin: 'Voltar para o login',
    notConfigured: 'A redefinição de senha por e-mail ainda não está configurada neste servidor. Peça a um administrador da sua empresa que defina uma nova senha para você (página Usuários).',
  },
};

export default pt;
