import type { Translation } from '../../../i18n/types';
import type en from './en';

const es: Translation<typeof en> = {
  login: {
    title: 'Iniciar sesión',
    subtitle: '¡Bienvenido de nuevo! Ingrese sus datos para continuar.',
    email: 'Correo electrónico',
    password: 'Contraseña',
    submit: 'Entrar',
    forgot: '¿Olvidó su contraseña?',
    noAccount: '¿No tiene una cuenta?',
    signup: 'Regístrese',
    showPassword: 'Mostrar contraseña',
    hidePassword: 'Ocultar contraseña',
  },
  signup: {
    title: 'Cree su cuenta',
    subtitle: 'Pruébelo gratis durante 3 días.',
    name: 'Nombre',
    email: 'Correo electrónico',
    phone: 'Teléfono',
    password: 'Contraseña',
    plan: 'Plan',
    choosePlan: 'Elija un plan',
    planOption: '{{name}} – Usuarios: {{users}} – WhatsApp: {{connections}} – Colas: {{queues}} – {{value}}',
    submit: 'Registrarse',
    haveAccount: '¿Ya tiene una cuenta?',
    login: 'Iniciar sesión',
    success: '¡Registro realizado con éxito! Inicie sesión para continuar.',
    plansError: 'No se pudieron cargar los planes.',
  },
  server: {
    button: 'Servidor',
    title: 'Dirección del servidor',
    label: 'Servidor',
    hint: 'La dirección de su servidor Atrium, por ejemplo https://desk.example.com',
    invalid: 'Ingrese una dirección http(s) como https://desk.example.com',
  },
  forgot: {
    title: 'Restablecer contraseña',
    backToLogin: 'Volver al inicio de sesión',
    notConfigured: 'El restablecimiento de contraseña por correo aún no está configurado en este servidor. Pida a un administrador de su empresa que le asigne una nueva contraseña (página Usuarios).',
  },
};

export default es;
