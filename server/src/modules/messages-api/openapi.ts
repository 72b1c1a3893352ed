import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import {
  API_MEDIA_MAX_BYTES,
  API_MEDIA_MAX_FILES,
  API_MEDIA_TYPES,
  apiErrorSchema,
  apiMessageIdParamSchema,
  apiMessageStatusSchema,
  apiSendMediaFieldsSchema,
  apiSendResponseSchema,
  apiSendTextSchema,
  idempotencyKeySchema,
} from '@atrium/shared';
import { z } from 'zod';

/**
 * The messages API's OpenAPI 3.1 document, generated from the shared zod schemas that validate its
 * requests (so the document cannot drift from what the server accepts). `.meta({ id })` names a schema as
 * a component; it registers the id in zod's global registry once per process, hence the one cached build.
 */
const VERSION = '8.0.1';
const MEDIA_MB = API_MEDIA_MAX_BYTES / (1024 * 1024);

type Headers = Record<string, { description: string; schema: { type: 'integer' | 'string' } }>;

const rateHeaders: Headers = {
  'X-RateLimit-Limit': { description: 'Calls this token may make per minute.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Calls left in the current minute.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Seconds until the window starts again.', schema: { type: 'integer' } },
};

const build = () => {
  const registry = new OpenAPIRegistry();
  const token = registry.registerComponent('securitySchemes', 'connectionToken', {
    type: 'http',
    scheme: 'bearer',
    description:
      "A connection's API token (Connections → edit the connection → API token). It is shown once when generated; generating a new one revokes the old.",
  });
  const security = [{ [token.name]: [] }];

  const sendText = apiSendTextSchema.meta({
    id: 'SendText',
    description: 'A text to a number. Variables such as {{name}} are filled for the contact.',
    example: { number: '5511987654321', body: 'Olá {{name}}, seu pedido saiu para entrega.', closeTicket: false },
  });
  const sendMedia = apiSendMediaFieldsSchema
    .extend({
      medias: z.array(z.any().meta({ type: 'string', format: 'binary' })).meta({
        description: `1 to ${API_MEDIA_MAX_FILES} files, each at most ${MEDIA_MB} MB: ${API_MEDIA_TYPES.join(', ')}.`,
      }),
    })
    .meta({ id: 'SendMedia', description: 'Files to a number, each captioned with `body`.' });
  const error = apiErrorSchema.meta({
    id: 'Error',
    description: 'Every error: `error` is the code; `fields` name the invalid fields of a validation error.',
    example: { error: 'ERR_WAPP_INVALID_CONTACT' },
  });
  const sent = apiSendResponseSchema.meta({
    id: 'SendResult',
    description: 'The messages are queued: they leave in order as the connection sends them. `mensagem` is kept for older tools.',
  });
  const status = apiMessageStatusSchema.meta({
    id: 'MessageStatus',
    description: 'pending → sending → sent → delivered → read, or failed with `error`.',
  });
  const failure = (description: string, headers?: Headers) => ({
    description,
    ...(headers ? { headers } : {}),
    content: { 'application/json': { schema: error } },
  });

  registry.registerPath({
    method: 'post',
    path: '/api/messages/send',
    operationId: 'sendMessage',
    summary: 'Send a message',
    description:
      "Sends a text (JSON) or files (multipart) to a WhatsApp number through the token's connection. The number is checked on WhatsApp first; the contact and its ticket on that connection are found or created, and `closeTicket` closes the ticket afterwards. With an Idempotency-Key, a retry of the same request answers the first answer again instead of sending twice.",
    security,
    request: {
      headers: z.object({
        'Idempotency-Key': idempotencyKeySchema.optional().meta({
          description:
            'Any unique value (a UUID) naming this request for 24 hours. The same key with the same request replays the first answer (with `Idempotent-Replayed: true`); while the first still runs, 409; with another request, 422.',
          example: '"8e03978e-40d5-43e8-bc93-6894a57f9324"',
        }),
      }),
      body: {
        required: true,
        content: { 'application/json': { schema: sendText }, 'multipart/form-data': { schema: sendMedia } },
      },
    },
    responses: {
      200: {
        description: 'Queued.',
        headers: { ...rateHeaders, 'Idempotent-Replayed': { description: '`true` when this is the answer a request with the same key got.', schema: { type: 'string' } } },
        content: { 'application/json': { schema: sent } },
      },
      400: failure('ERR_VALIDATION (see `fields`), ERR_INVALID_JSON, or ERR_WAPP_INVALID_CONTACT: the number is not on WhatsApp.'),
      401: failure('ERR_INVALID_API_TOKEN: no token, or one no connection has (a token is revoked when a new one is generated); ERR_COMPANY_INACTIVE, ERR_SUBSCRIPTION_EXPIRED.'),
      403: failure("ERR_PLAN_FEATURE_DISABLED: the company's plan does not include the external API."),
      409: failure('ERR_IDEMPOTENCY_KEY_IN_USE: a request with this Idempotency-Key is still running.'),
      413: failure(`ERR_PAYLOAD_TOO_LARGE: a file over ${MEDIA_MB} MB or more than ${API_MEDIA_MAX_FILES} files.`),
      415: failure('ERR_UNSUPPORTED_MEDIA_TYPE: a file of a type not listed.'),
      422: failure('ERR_IDEMPOTENCY_KEY_REUSED: this Idempotency-Key was used with another request.'),
      429: failure('ERR_TOO_MANY_REQUESTS: too many calls with this token this minute; `retryAfter` seconds.', {
        'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } },
      }),
      502: failure('ERR_WAPP_CHECK_CONTACT: WhatsApp did not answer the number check.'),
      503: failure("ERR_WAPP_NOT_CONNECTED: the token's connection is not connected to WhatsApp now."),
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/api/messages/{id}',
    operationId: 'getMessageStatus',
    summary: "A sent message's status",
    description: "A message this token's connection sent (an id from the send's answer): queued, sent, delivered, read or failed.",
    security,
    request: { params: apiMessageIdParamSchema },
    responses: {
      200: { description: 'The status.', headers: rateHeaders, content: { 'application/json': { schema: status } } },
      400: failure('ERR_VALIDATION: the id is not a number.'),
      401: failure('ERR_INVALID_API_TOKEN.'),
      403: failure('ERR_PLAN_FEATURE_DISABLED.'),
      404: failure("ERR_NO_MESSAGE_FOUND: no message with this id was sent through this token's connection."),
      429: failure('ERR_TOO_MANY_REQUESTS.', { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } }),
    },
  });

  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Atrium messages API',
      version: VERSION,
      description:
        "Send WhatsApp messages from other systems through one of the company's connections. Each connection has its own token; the company's plan must include the external API.",
    },
  });
};

let document: ReturnType<typeof build> | undefined;

/** The document served at GET /api/openapi.json. */
export const openApiDocument = () => (document ??= build());
