import type { Translation } from '../../../i18n/types';
import type en from './en';

const es: Translation<typeof en> = {
  title: 'Suscripción',
  trial: {
    label: 'Período de prueba',
    days_one: '¡Su período de prueba termina en {{count}} día!',
    days_other: '¡Su período de prueba termina en {{count}} días!',
    ended: 'Su período de prueba ha terminado.',
    none: 'Sin período de prueba.',
  },
  chargeEmail: 'Correo de facturación',
  signNow: '¡Suscríbase ahora!',
  noInvoice: 'Todavía no hay ninguna factura abierta: las facturas se emiten 20 días antes del vencimiento.',
  paid: '¡Pago confirmado! Su licencia se renovó hasta el {{date}}.',
  paidNoDate: '¡Pago confirmado! Su licencia se renovó.',
  checkout: {
    title: 'Pago',
    steps: {
      data: 'Datos',
      plan: 'Plan',
      review: 'Revisar',
    },
    data: {
      firstName: 'Nombre',
      lastName: 'Apellido',
      address2: 'Dirección',
      city: 'Ciudad',
      state: 'Estado',
      zipcode: 'Código postal',
      zipcodeInvalid: 'Ingrese un código postal como 12345-678 (Brasil) o 12345 (Estados Unidos)',
      country: 'País',
      countries: {
        BR: 'Brasil',
        usa: 'Estados Unidos',
      },
    },
    plan: {
      users: 'Usuarios: {{count}}',
      connections: 'WhatsApp: {{count}}',
      queues: 'Colas: {{count}}',
      invoice: 'Factura n.º {{id}} con vencimiento el {{date}}',
      choose: 'Elegir',
    },
    review: {
      title: 'Resumen del pedido',
      plan: 'Plan',
      value: 'Valor',
      dueDate: 'Vencimiento de la factura',
      payer: 'Datos de facturación',
      method: 'Forma de pago',
      pix: 'Pix',
      editData: 'Editar datos de facturación',
    },
    back: 'Atrás',
    next: 'Siguiente',
    pay: 'Pagar',
    close: 'Cerrar',
    success: 'Cobro Pix creado: páguelo con el código QR.',
    pix: {
      title: 'Pague con Pix',
      hint: 'Escanee el código QR con la app de su banco o copie el código de abajo.',
      amount: 'Valor: {{value}}',
      code: 'Pix copia y pega',
      copy: 'Copiar',
      copied: '¡Copiado!',
      waiting: 'Esperando que el banco confirme el pago…',
      paid: 'Pago recibido. ¡Gracias!',
    },
  },
};

export default es;
