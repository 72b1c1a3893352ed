// What other modules may use of this one (they import it only from here; its routes, jobs, steps and
// listeners are in module.ts, which only the app composes).
export { flowMayWork } from './conversation.js';
