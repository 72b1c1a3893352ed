import type { Translation } from '../../../i18n/types';
import type en from './en';

const es: Translation<typeof en> = {
  title: 'API de mensajes',
  subtitle: 'Envíe mensajes de WhatsApp desde otros sistemas a través de una de sus conexiones.',
  intro: {
    endpoint: 'Dirección',
    auth: 'Autenticación',
    authText:
      'Cada conexión tiene su propio token: Conexiones → editar la conexión → Token de la API. Se muestra una sola vez al generarse; generar otro revoca el anterior. Envíelo como "Authorization: Bearer <token>". Su plan debe incluir la API externa.',
    idempotency: 'Reintentos sin duplicados',
    idempotencyText:
      'Envíe un encabezado Idempotency-Key (un UUID) con cada mensaje. Un reintento con la misma clave y la misma solicitud devuelve la primera respuesta (Idempotent-Replayed: true) en lugar de enviar de nuevo; mientras la primera sigue en curso la respuesta es 409; la misma clave con otra solicitud es 422. Las claves se guardan 24 horas.',
    rateLimit: 'Límite de llamadas',
    rateLimitText:
      'Cada token tiene un número de llamadas por minuto (X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset). Por encima la respuesta es 429 con Retry-After, en segundos. Los mensajes salen en orden, al ritmo de la conexión.',
    document: 'Documento OpenAPI',
    documentText: 'La descripción completa, para generadores de código y herramientas de API:',
  },
  doc: {
    loading: 'Cargando la documentación…',
    failed: 'No se pudo cargar la documentación.',
    retry: 'Reintentar',
    parameters: 'Parámetros',
    requestBody: 'Cuerpo de la solicitud',
    responses: 'Respuestas',
    example: 'Ejemplo',
    required: 'obligatorio',
    optional: 'opcional',
    inHeader: 'encabezado',
    inPath: 'ruta',
    inQuery: 'consulta',
    headers: 'Encabezados: {{names}}',
    jsonBody: 'JSON (un texto)',
    multipartBody: 'multipart/form-data (archivos)',
    maxLength: 'hasta {{max}} caracteres',
    range: 'de {{min}} a {{max}}',
    defaultValue: 'por defecto {{value}}',
    oneOf: 'uno de {{values}}',
    copy: 'Copiar',
    copied: 'Copiado',
  },
  operations: {
    sendMessage: {
      summary: 'Enviar un mensaje',
      description:
        'Envía un texto (JSON) o archivos (multipart) a un número de WhatsApp por la conexión del token. El número se verifica antes en WhatsApp; el contacto y su ticket en esa conexión se encuentran o se crean, y closeTicket cierra el ticket después.',
    },
    getMessageStatus: {
      summary: 'El estado de un mensaje enviado',
      description: 'Un mensaje que envió la conexión de este token (un id de la respuesta del envío): pendiente, enviando, enviado, entregado, leído o fallido.',
    },
  },
  test: {
    title: 'Pruébelo',
    token: 'Token de la conexión',
    tokenHint: 'El token de la conexión que envía. Solo queda en esta pantalla.',
    showToken: 'Mostrar el token',
    hideToken: 'Ocultar el token',
    idempotencyKey: 'Idempotency-Key (opcional)',
    newKey: 'Nueva clave',
    textTab: 'Texto',
    mediaTab: 'Multimedia',
    number: 'Número',
    numberHint: 'Con el código del país, p. ej. 5511987654321.',
    body: 'Mensaje',
    caption: 'Leyenda (opcional)',
    files: 'Archivos',
    filesHint: 'Hasta {{count}} archivos de {{mb}} MB cada uno: imágenes, audio, video, PDF y documentos de oficina.',
    chooseFiles: 'Elegir archivos',
    noFiles: 'Ningún archivo elegido',
    closeTicket: 'Cerrar el ticket después de enviar',
    send: 'Enviar',
    sending: 'Enviando…',
    result: 'Respuesta',
    replayed: 'La misma respuesta que la primera solicitud con esta clave (no se envió nada de nuevo).',
    checkStatus: 'Consultar el estado',
    status: 'Estado del mensaje {{id}}',
    tokenRequired: 'Obligatorio',
    filesRequired: 'Elija al menos un archivo',
  },
};

export default es;
