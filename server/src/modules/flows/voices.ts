import type { AiVoice } from '../prompts/index.js';

/**
 * The OpenAI node's voice setting (spec 02 keeps the old product's list of Azure's Brazilian Portuguese
 * neural voices, or "texto" for text-only answers) as one of the voices of OpenAI's text-to-speech, which
 * speaks the answer with the node's own key: a woman's voice for the women's names, a man's for the men's.
 */
const FEMALE = new Set(['Francisca', 'Brenda', 'Elza', 'Giovanna', 'Leila', 'Leticia', 'Manuela', 'Yara']);

/** The voice to speak with, or null when the node answers in text. */
export const aiVoiceOf = (voice: string | undefined): AiVoice | null => {
  const name = /^pt-BR-([A-Za-z]+)Neural$/.exec(voice ?? '')?.[1];
  if (!name) return null;
  return FEMALE.has(name) ? 'nova' : 'onyx';
};
