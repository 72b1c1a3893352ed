// What other modules may use of this one (they import it only from here; its routes, jobs and
// listeners are in module.ts, which only the app composes). The bottom layer of the conversation: how a
// message is stored and shown; it knows neither tickets' rules nor the outbox.
export { messageCounters, previewOf, storeMessage } from './message-store.js';
export { messageView, presentMessage, presentMessages } from './message.presenter.js';
export { renderVariables, variablesFor } from './variables.js';
