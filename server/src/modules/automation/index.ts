// What the automation that answers customers for the company (AI prompts, queue integrations) shares:
// who answers a ticket, taking the conversation and handing it to a person. No routes of its own.
export { automationTargets, type AutomationMemory, type AutomationTarget } from './targets.js';
export { notesFor, type AutomationNotes } from './texts.js';
export { actorOf, automationNote, conversationHistory, handToPerson, isAnswering, latestInboundFacts, takeConversation } from './handoff.js';
export { answerOnQueueChoice, automationStep, type AutomationStepDeps } from './step.js';
