// What other modules may use of this one (they import it only from here; its routes, jobs and
// listeners are in module.ts, which only the app composes). Campaigns read a list's items to send to and
// make a list from a tag's contacts.
export { announceList, findList, listCounts, presentList } from './contact-lists.service.js';
export { csv } from './contact-lists.jobs.js';
