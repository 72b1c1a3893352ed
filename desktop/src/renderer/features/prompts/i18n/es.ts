/** Strings of the prompts feature (namespace 'prompts'): useTranslation('prompts'). */
const es = {
  title: 'Prompts Open.Ai',
  search: 'Buscar prompts',
  add: 'Agregar prompt',
  empty: 'Aún no hay prompts',
  columns: { name: 'Nombre', queue: 'Sector', maxTokens: 'Máx. tokens', actions: 'Acciones' },
  dialog: {
    addTitle: 'Agregar prompt',
    editTitle: 'Editar prompt',
    name: 'Nombre',
    prompt: 'Prompt',
    promptHint: 'Lo que el asistente sabe y cómo responde (al menos 50 caracteres).',
    model: 'Modelo',
    modelRetiring: '{{label}} (se retira el {{date}})',
    retires: 'El proveedor retira este modelo el {{date}}: elija otro.',
    apiKey: 'Clave de API',
    apiKeyKept: 'Hay una clave guardada que termina en {{last4}}; déjelo vacío para mantenerla.',
    queue: 'Sector (transferencia)',
    chooseQueue: 'Elija un sector',
    queueRequired: 'Elija el sector al que va la conversación.',
    temperature: 'Temperatura: {{value}}',
    maxTokens: 'Máx. de tokens en la respuesta',
    maxMessages: 'Máx. de mensajes en el historial',
    handoffHint: 'Cuando el asistente transfiere la conversación, el ticket espera a una persona en este sector.',
  },
  usage: { month: 'Este mes: {{tokens}} tokens en {{requests}} solicitudes', hint: "Respuestas automáticas, audios y las sugerencias y resúmenes de los agentes, de todos los prompts de la empresa." },
  toasts: { saved: 'Prompt guardado.', deleted: 'Prompt eliminado.' },
  confirmDelete: { title: '¿Eliminar {{name}}?', body: 'El prompt se eliminará. Esta acción no se puede deshacer.' },
};

export default es;
