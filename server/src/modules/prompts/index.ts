// What other modules may use of this one (they import it only from here; its routes, steps and listeners
// are in module.ts, which only the app composes).
export { AiError, speak, type AiFailure, type AiVoice } from './ai-client.js';
export { flowAiReply, flowAiReplyTo, type AiNodeSettings } from './flow-reply.js';
