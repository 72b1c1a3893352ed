import type { Translation } from '../../../i18n/types';
import type en from './en';

const pt: Translation<typeof en> = {
  title: 'Conexões',
  add: 'Adicionar conexão',
  empty: 'Nenhuma conexão ainda.',
  columns: {
    name: 'Nome',
    status: 'Status',
    session: 'Sessão',
    lastUpdate: 'Última atualização',
    default: 'Padrão',
    actions: 'Ações',
  },
  buttons: {
    qrcode: 'QR code',
    disconnect: 'Desconectar',
    tryAgain: 'Tentar novamente',
    newQr: 'Novo QR code',
    connecting: 'Conectando',
  },
  statusLabel: {
    qrcode: 'Aguardando QR code',
    PAIRING: 'Pareando',
    TIMEOUT: 'Tempo esgotado',
    DISCONNECTED: 'Desconectado',
    OPENING: 'Conectando',
    CONNECTED: 'Conectado',
  },
  statusHint: {
    qrcode: 'Leia o QR code com o celular para iniciar a sessão.',
    PAIRING: 'Pareando com o celular…',
    TIMEOUT: 'O celular demorou demais para responder.',
    DISCONNECTED: 'A conexão caiu. Tente novamente ou peça um novo QR code.',
    OPENING: 'Conectando…',
    CONNECTED: 'Conectado',
  },
  modal: {
    addTitle: 'Adicionar conexão',
    editTitle: 'Editar conexão',
    name: 'Nome',
    isDefault: 'Padrão',
    provider: 'Provedor',
    providers: { beta: 'WhatsApp', sandbox: 'Celular simulado' },
    greetingMessage: 'Mensagem de saudação',
    greetingRequired: 'Obrigatória quando há mais de uma fila',
    complationMessage: 'Mensagem de conclusão',
    outOfHoursMessage: 'Mensagem de fora de expediente',
    ratingMessage: 'Mensagem de avaliação',
    expiresInactiveMessage: 'Mensagem de inatividade',
    queues: 'Filas',
    noQueues: 'Nenhuma fila',
    expiresTicket: 'Encerrar chamados após (minutos)',
    timeToTransfer: 'Transferir após (minutos)',
    transferQueueId: 'Transferir para a fila',
    none: 'Nenhuma',
    maxUseBotQueues: 'Tentativas do chatbot',
    timeUseBotQueues: 'Intervalo do chatbot (minutos)',
  },
  qr: {
    title: 'Leia o QR code para iniciar a sessão',
    waiting: 'Aguardando o QR code…',
    sandboxScan: 'Escanear com o celular simulado',
    instructions: 'Abra o WhatsApp no celular, vá em Aparelhos conectados e aponte a câmera para este código.',
  },
  confirmDelete: {
    title: 'Excluir a conexão {{name}}?',
    body: 'Os chamados desta conexão mantêm as mensagens, mas nenhuma nova mensagem chegará.',
  },
  confirmDisconnect: {
    title: 'Desconectar {{name}}?',
    body: 'A sessão termina; será preciso um novo QR code.',
  },
  toasts: {
    saved: 'Conexão salva com sucesso.',
    deleted: 'Conexão excluída com sucesso.',
  },
  yes: 'Sim',
  no: 'Não',
};

export default pt;
