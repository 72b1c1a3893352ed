/** Automatic texts customers receive, in the company's language (pt, en or es). */
type Lang = 'pt' | 'en' | 'es';

const pick = (lang: string): Lang => (lang === 'en' || lang === 'es' ? lang : 'pt');

export const acceptedGreeting = (lang: string, agent: string): string =>
  ({
    pt: `{{ms}} *{{name}}*, meu nome é *${agent}* e agora vou prosseguir com seu atendimento!`,
    en: `Hello *{{name}}*, my name is *${agent}* and I will take care of your request now!`,
    es: `¡Hola *{{name}}*, mi nombre es *${agent}* y ahora continuaré con tu atención!`,
  })[pick(lang)];

export const transferNotice = (lang: string, change: { queue?: string; user?: string }): string | null => {
  const l = pick(lang);
  const header = { pt: '*Mensagem automática*:', en: '*Automatic message*:', es: '*Mensaje automático*:' }[l];
  const wait = { pt: 'aguarde, já vamos te atender!', en: 'please wait, we will be with you shortly!', es: '¡espera, ya te atenderemos!' }[l];
  if (change.queue && change.user) {
    const text = {
      pt: `Você foi transferido para o departamento *${change.queue}* e contará com a presença de *${change.user}*`,
      en: `You have been transferred to the *${change.queue}* department and *${change.user}* will assist you`,
      es: `Has sido transferido al departamento *${change.queue}* y te atenderá *${change.user}*`,
    }[l];
    return `${header}\n${text}\n${wait}`;
  }
  if (change.queue) {
    const text = {
      pt: `Você foi transferido para o departamento *${change.queue}*`,
      en: `You have been transferred to the *${change.queue}* department`,
      es: `Has sido transferido al departamento *${change.queue}*`,
    }[l];
    return `${header}\n${text}\n${wait}`;
  }
  if (change.user) {
    const text = {
      pt: `Você foi transferido para o atendente *${change.user}*`,
      en: `You have been transferred to *${change.user}*`,
      es: `Has sido transferido al agente *${change.user}*`,
    }[l];
    return `${header}\n${text}\n${wait}`;
  }
  return null;
};

export const ratingPrompt = (lang: string): string =>
  ({
    pt: 'Por favor, avalie nosso atendimento respondendo com um número:\n\n*1* - _Insatisfeito_\n*2* - _Satisfeito_\n*3* - _Muito satisfeito_',
    en: 'Please rate our service by answering with a number:\n\n*1* - _Unsatisfied_\n*2* - _Satisfied_\n*3* - _Very satisfied_',
    es: 'Por favor, califica nuestra atención respondiendo con un número:\n\n*1* - _Insatisfecho_\n*2* - _Satisfecho_\n*3* - _Muy satisfecho_',
  })[pick(lang)];

export const ratingRetry = (lang: string): string =>
  ({
    pt: 'Não entendi. Responda apenas *1*, *2* ou *3*, por favor.',
    en: 'Sorry, I did not understand. Please answer just *1*, *2* or *3*.',
    es: 'No entendí. Responde solo *1*, *2* o *3*, por favor.',
  })[pick(lang)];

export const ratingThanks = (lang: string): string =>
  ({ pt: 'Obrigado pela sua avaliação!', en: 'Thank you for your rating!', es: '¡Gracias por tu calificación!' })[pick(lang)];
