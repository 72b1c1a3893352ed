import { startProtocolServer, type ReceivedRequest, type Reply } from './protocol-server.js';

/**
 * A local server speaking OpenAI's REST API as its reference documents it, enough for the `openai` package:
 * GET /v1/models, POST /v1/chat/completions, POST /v1/audio/transcriptions (multipart), POST
 * /v1/audio/speech (answers `speech`, Ogg bytes, as the provider does for `response_format: opus`). Keys starting
 * with `sk-bad` are refused (401, invalid_api_key) as the provider does. A test sets `reply` to decide
 * what the model says (or an error status) and `transcript` for voice notes.
 */
export const startOpenAiServer = async (port = 0) => {
  const state = {
    reply: (_req: ReceivedRequest): string | Reply => 'Olá! Como posso ajudar?',
    transcript: 'quero saber o preço',
    speech: Buffer.concat([Buffer.from('OggS'), Buffer.alloc(2), Buffer.from('OpusHead'), Buffer.alloc(64, 7)]) as Buffer | Reply,
  };
  const error = (status: number, code: string, type: string) => ({ status, body: { error: { message: `${code}: refused`, type, param: null, code } } });
  const server = await startProtocolServer((req) => {
    const key = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1] ?? '';
    if (!key || key.startsWith('sk-bad')) return error(401, 'invalid_api_key', 'invalid_request_error');
    if (req.method === 'GET' && req.path === '/v1/models') {
      return { body: { object: 'list', data: [{ id: 'gpt-4.1-mini', object: 'model', created: 1700000000, owned_by: 'system' }] } };
    }
    if (req.method === 'POST' && req.path === '/v1/audio/transcriptions') {
      if (!String(req.headers['content-type']).startsWith('multipart/form-data') || !req.text.includes('whisper-1')) return error(400, 'bad_request', 'invalid_request_error');
      return { body: { text: state.transcript } };
    }
    if (req.method === 'POST' && req.path === '/v1/audio/speech') {
      if (!Buffer.isBuffer(state.speech)) return state.speech;
      return { headers: { 'content-type': 'audio/ogg' }, body: state.speech };
    }
    if (req.method === 'POST' && req.path === '/v1/chat/completions') {
      const said = state.reply(req);
      if (typeof said !== 'string') return said;
      return {
        body: {
          id: `chatcmpl-${server.requests.length}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: req.json?.model,
          choices: [{ index: 0, message: { role: 'assistant', content: said, refusal: null }, logprobs: null, finish_reason: 'stop' }],
          usage: { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 },
        },
      };
    }
    return error(404, 'not_found', 'invalid_request_error');
  }, port);
  const chats = () => server.requests.filter((r) => r.path === '/v1/chat/completions');
  const speeches = () => server.requests.filter((r) => r.path === '/v1/audio/speech');
  return { ...server, state, chats, speeches, error };
};
