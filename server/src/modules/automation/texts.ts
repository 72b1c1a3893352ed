import type { EntityManager } from '@mikro-orm/postgresql';
import { Company } from '../companies/company.entity.js';

/**
 * The internal notes the automation leaves when it hands a conversation to a person, in the company's
 * language: the agent reads why the bot stopped.
 */
const NOTES = {
  pt: {
    ERR_AI_INVALID_API_KEY: 'A IA não respondeu: a chave de API foi recusada pelo provedor. O atendimento passou para uma pessoa.',
    ERR_AI_QUOTA: 'A IA não respondeu: a cota do provedor acabou ou o limite de uso foi atingido. O atendimento passou para uma pessoa.',
    ERR_AI_TIMEOUT: 'A IA não respondeu a tempo. O atendimento passou para uma pessoa.',
    ERR_AI_UNAVAILABLE: 'A IA não respondeu: o provedor falhou. O atendimento passou para uma pessoa.',
    aiEmpty: 'A IA não deu resposta. O atendimento passou para uma pessoa.',
    aiHandoff: 'A IA transferiu o atendimento para uma pessoa.',
    integrationFailed: (name: string, why: string) => `A integração "${name}" falhou (${why}). O atendimento passou para uma pessoa.`,
    integrationEnded: (name: string) => `A integração "${name}" encerrou a conversa e passou o atendimento para uma pessoa.`,
    summary: (text: string) => `Resumo da IA:\n${text}`,
  },
  en: {
    ERR_AI_INVALID_API_KEY: 'The AI did not answer: the provider refused the API key. A person takes over.',
    ERR_AI_QUOTA: 'The AI did not answer: the provider quota or rate limit was reached. A person takes over.',
    ERR_AI_TIMEOUT: 'The AI did not answer in time. A person takes over.',
    ERR_AI_UNAVAILABLE: 'The AI did not answer: the provider failed. A person takes over.',
    aiEmpty: 'The AI gave no answer. A person takes over.',
    aiHandoff: 'The AI handed the conversation to a person.',
    integrationFailed: (name: string, why: string) => `The integration "${name}" failed (${why}). A person takes over.`,
    integrationEnded: (name: string) => `The integration "${name}" ended the conversation and handed it to a person.`,
    summary: (text: string) => `AI summary:\n${text}`,
  },
  es: {
    ERR_AI_INVALID_API_KEY: 'La IA no respondió: el proveedor rechazó la clave de API. Una persona continúa la atención.',
    ERR_AI_QUOTA: 'La IA no respondió: se agotó la cuota o el límite del proveedor. Una persona continúa la atención.',
    ERR_AI_TIMEOUT: 'La IA no respondió a tiempo. Una persona continúa la atención.',
    ERR_AI_UNAVAILABLE: 'La IA no respondió: el proveedor falló. Una persona continúa la atención.',
    aiEmpty: 'La IA no dio respuesta. Una persona continúa la atención.',
    aiHandoff: 'La IA transfirió la atención a una persona.',
    integrationFailed: (name: string, why: string) => `La integración "${name}" falló (${why}). Una persona continúa la atención.`,
    integrationEnded: (name: string) => `La integración "${name}" terminó la conversación y la pasó a una persona.`,
    summary: (text: string) => `Resumen de la IA:\n${text}`,
  },
};

export type AutomationNotes = (typeof NOTES)['en'];

export const notesFor = async (em: EntityManager, companyId: number): Promise<AutomationNotes> => {
  const company = await em.findOne(Company, companyId, { fields: ['language'] });
  const language = company?.language as keyof typeof NOTES | undefined;
  return NOTES[language && language in NOTES ? language : 'pt'];
};
