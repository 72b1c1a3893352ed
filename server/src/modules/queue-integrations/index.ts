// What other modules may use of this one (they import it only from here; its routes and steps are in
// module.ts, which only the app composes).
export { typebotFailure, typebotFlowTurn, type Prepared, type TypebotFlowState, type TypebotFlowTurn, type TypebotHttp } from './typebot-exchange.js';
