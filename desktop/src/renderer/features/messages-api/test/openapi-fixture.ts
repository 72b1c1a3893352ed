import type { OpenApiDocument } from '../api/messages-api';

/** The shape GET /api/openapi.json answers (server/src/modules/messages-api/openapi.ts), trimmed. */
export const openApiFixture = (): OpenApiDocument => ({
  openapi: '3.1.0',
  info: { title: 'Atrium messages API', version: '8.0.1' },
  components: {
    securitySchemes: { connectionToken: { type: 'http', scheme: 'bearer' } },
    schemas: {
      SendText: {
        type: 'object',
        description: 'A text to a number.',
        properties: {
          number: { type: 'string' },
          body: { type: 'string', maxLength: 4096 },
          closeTicket: { anyOf: [{ type: 'boolean' }, { type: 'string', enum: ['true', 'false', 't', 'f'] }], default: false },
        },
        required: ['number', 'body'],
      },
      SendMedia: {
        type: 'object',
        properties: {
          number: { type: 'string' },
          body: { type: 'string', maxLength: 4096, default: '' },
          medias: { type: 'array', items: { type: 'string', format: 'binary' }, description: '1 to 10 files.' },
        },
        required: ['number', 'medias'],
      },
      SendResult: {
        type: 'object',
        properties: {
          mensagem: { type: 'string', enum: ['Mensagem enviada'] },
          messageId: { type: 'integer' },
          messages: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, wid: { type: 'string' } }, required: ['id', 'wid'] } },
        },
        required: ['mensagem', 'messageId', 'messages'],
      },
      MessageStatus: {
        type: 'object',
        properties: { id: { type: 'integer' }, status: { type: 'string', enum: ['pending', 'sending', 'sent', 'delivered', 'read', 'failed'] } },
        required: ['id', 'status'],
      },
      Error: { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] },
    },
  },
  paths: {
    '/api/messages/send': {
      post: {
        operationId: 'sendMessage',
        summary: 'Send a message',
        parameters: [{ name: 'Idempotency-Key', in: 'header', required: false, description: 'A unique value naming this request.', schema: { type: 'string' } }],
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: { $ref: '#/components/schemas/SendText' } },
            'multipart/form-data': { schema: { $ref: '#/components/schemas/SendMedia' } },
          },
        },
        responses: {
          200: {
            description: 'Queued.',
            headers: { 'X-RateLimit-Limit': { schema: { type: 'integer' } }, 'Idempotent-Replayed': { schema: { type: 'string' } } },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/SendResult' } } },
          },
          401: { description: 'ERR_INVALID_API_TOKEN.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
          429: {
            description: 'ERR_TOO_MANY_REQUESTS.',
            headers: { 'Retry-After': { schema: { type: 'integer' } } },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
          503: { description: 'ERR_WAPP_NOT_CONNECTED.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        },
      },
    },
    '/api/messages/{id}': {
      get: {
        operationId: 'getMessageStatus',
        summary: "A sent message's status",
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', exclusiveMinimum: 0, maximum: 2147483647 } }],
        responses: {
          200: { description: 'The status.', content: { 'application/json': { schema: { $ref: '#/components/schemas/MessageStatus' } } } },
          404: { description: 'ERR_NO_MESSAGE_FOUND.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        },
      },
    },
  },
});
