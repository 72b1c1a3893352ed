// What other modules may use of this one (they import it only from here; its routes and steps are in
// module.ts, which only the app composes).
export {
  typebotFailure,
  typebotFlowRest,
  typebotFlowTurn,
  typebotKeyword,
  type Prepared,
  type TypebotFlowState,
  type TypebotFlowTurn,
  type TypebotHttp,
  type TypebotLater,
} from './typebot-exchange.js';
