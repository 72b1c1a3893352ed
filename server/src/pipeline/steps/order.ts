/**
 * Where each inbound step runs (DESIGN.md, "The automation spine"): rating reply → flow-campaign phrase →
 * running flow → integration or AI prompt → queue chatbot → the connection's no-match flow (what nothing
 * else answered). A module contributes its step with one of these (AppModule.steps); the gaps leave room
 * for a step between two.
 */
export const STEP_ORDER = {
  ratingReply: 100,
  flowPhrase: 200,
  runningFlow: 300,
  integration: 400,
  prompt: 450,
  chatbot: 500,
  flowNoMatch: 600,
} as const;
