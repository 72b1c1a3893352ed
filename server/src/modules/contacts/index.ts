// What other modules may use of this one (they import it only from here; its routes, jobs and
// listeners are in module.ts, which only the app composes).
export { digitsOnly, isPlaceholderName, upsertChannelContact } from './contact-identity.js';
export { presentContact } from './contact.presenter.js';
export { cellText, zipUncompressedSize } from './contact-import.js';
