import type { Translation } from '../../../i18n/types';
import type en from './en';

const pt: Translation<typeof en> = {
  title: 'Assinatura',
  trial: {
    label: 'Período de teste',
    days_one: 'Seu período de teste termina em {{count}} dia!',
    days_other: 'Seu período de teste termina em {{count}} dias!',
    ended: 'Seu período de teste terminou.',
    none: 'Sem período de teste.',
  },
  chargeEmail: 'E-mail de cobrança',
  signNow: 'Assine agora!',
  noInvoice: 'Ainda não há fatura em aberto: as faturas são emitidas 20 dias antes do vencimento.',
  paid: 'Pagamento confirmado! Sua licença foi renovada até {{date}}.',
  paidNoDate: 'Pagamento confirmado! Sua licença foi renovada.',
  checkout: {
    title: 'Checkout',
    steps: {
      data: 'Dados',
      plan: 'Plano',
      review: 'Revisar',
    },
    data: {
      firstName: 'Nome',
      lastName: 'Sobrenome',
      address2: 'Endereço',
      city: 'Cidade',
      state: 'Estado',
      zipcode: 'CEP',
      zipcodeInvalid: 'Informe um CEP como 12345-678 (Brasil) ou um ZIP como 12345 (Estados Unidos)',
      country: 'País',
      countries: {
        BR: 'Brasil',
        usa: 'Estados Unidos',
      },
    },
    plan: {
      users: 'Usuários: {{count}}',
      connections: 'WhatsApp: {{count}}',
      queues: 'Filas: {{count}}',
      invoice: 'Fatura nº {{id}} com vencimento em {{date}}',
      choose: 'Selecionar',
    },
    review: {
      title: 'Resumo do pedido',
      plan: 'Plano',
      value: 'Valor',
      dueDate: 'Vencimento da fatura',
      payer: 'Dados de cobrança',
      method: 'Forma de pagamento',
      pix: 'Pix',
      editData: 'Editar dados de cobrança',
    },
    back: 'Voltar',
    next: 'Próximo',
    pay: 'Pagar',
    close: 'Fechar',
    success: 'Cobrança Pix criada: pague com o QR code.',
    pix: {
      title: 'Pague com Pix',
      hint: 'Leia o QR code com o app do seu banco ou copie o código abaixo.',
      amount: 'Valor: {{value}}',
      code: 'Pix copia e cola',
      copy: 'Copiar',
      copied: 'Copiado!',
      waiting: 'Aguardando a confirmação do pagamento pelo banco…',
      paid: 'Pagamento recebido. Obrigado!',
    },
  },
};

export default pt;
