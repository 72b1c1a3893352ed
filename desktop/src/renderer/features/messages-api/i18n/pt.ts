import type { Translation } from '../../../i18n/types';
import type en from './en';

const pt: Translation<typeof en> = {
  title: 'API de mensagens',
  subtitle: 'Envie mensagens de WhatsApp a partir de outros sistemas por uma das suas conexões.',
  intro: {
    endpoint: 'Endereço',
    auth: 'Autenticação',
    authText:
      'Cada conexão tem seu próprio token: Conexões → editar a conexão → Token da API. Ele aparece uma única vez ao ser gerado; gerar outro revoga o anterior. Envie-o como "Authorization: Bearer <token>". Seu plano precisa incluir a API externa.',
    idempotency: 'Novas tentativas sem duplicar',
    idempotencyText:
      'Envie um cabeçalho Idempotency-Key (um UUID) com cada mensagem. Uma nova tentativa com a mesma chave e a mesma requisição devolve a primeira resposta (Idempotent-Replayed: true) em vez de enviar de novo; enquanto a primeira ainda está em andamento a resposta é 409; a mesma chave com outra requisição é 422. As chaves são guardadas por 24 horas.',
    rateLimit: 'Limite de chamadas',
    rateLimitText:
      'Cada token tem um número de chamadas por minuto (X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset). Além dele a resposta é 429 com Retry-After, em segundos. As mensagens saem em ordem, no ritmo da conexão.',
    document: 'Documento OpenAPI',
    documentText: 'A descrição completa, para geradores de código e ferramentas de API:',
  },
  doc: {
    loading: 'Carregando a documentação…',
    failed: 'Não foi possível carregar a documentação.',
    retry: 'Tentar de novo',
    parameters: 'Parâmetros',
    requestBody: 'Corpo da requisição',
    responses: 'Respostas',
    example: 'Exemplo',
    required: 'obrigatório',
    optional: 'opcional',
    inHeader: 'cabeçalho',
    inPath: 'caminho',
    inQuery: 'consulta',
    headers: 'Cabeçalhos: {{names}}',
    jsonBody: 'JSON (um texto)',
    multipartBody: 'multipart/form-data (arquivos)',
    maxLength: 'até {{max}} caracteres',
    range: 'de {{min}} a {{max}}',
    defaultValue: 'padrão {{value}}',
    oneOf: 'um de {{values}}',
    copy: 'Copiar',
    copied: 'Copiado',
  },
  operations: {
    sendMessage: {
      summary: 'Enviar uma mensagem',
      description:
        'Envia um texto (JSON) ou arquivos (multipart) para um número de WhatsApp pela conexão do token. O número é verificado no WhatsApp antes; o contato e seu ticket nessa conexão são encontrados ou criados, e closeTicket fecha o ticket em seguida.',
    },
    getMessageStatus: {
      summary: 'O status de uma mensagem enviada',
      description: 'Uma mensagem que a conexão deste token enviou (um id da resposta do envio): pendente, enviando, enviada, entregue, lida ou com falha.',
    },
  },
  test: {
    title: 'Teste',
    token: 'Token da conexão',
    tokenHint: 'O token da conexão que envia. Ele fica apenas nesta tela.',
    showToken: 'Mostrar o token',
    hideToken: 'Ocultar o token',
    idempotencyKey: 'Idempotency-Key (opcional)',
    newKey: 'Nova chave',
    textTab: 'Texto',
    mediaTab: 'Mídia',
    number: 'Número',
    numberHint: 'Com o código do país, ex.: 5511987654321.',
    body: 'Mensagem',
    caption: 'Legenda (opcional)',
    files: 'Arquivos',
    filesHint: 'Até {{count}} arquivos de {{mb}} MB cada: imagens, áudio, vídeo, PDF e documentos de escritório.',
    chooseFiles: 'Escolher arquivos',
    noFiles: 'Nenhum arquivo escolhido',
    closeTicket: 'Fechar o ticket após o envio',
    send: 'Enviar',
    sending: 'Enviando…',
    result: 'Resposta',
    replayed: 'A mesma resposta da primeira requisição com esta chave (nada foi enviado de novo).',
    checkStatus: 'Consultar o status',
    status: 'Status da mensagem {{id}}',
    tokenRequired: 'Obrigatório',
    filesRequired: 'Escolha ao menos um arquivo',
  },
};

export default pt;
