export * from './delivery-outcome.js';
export * from './stack-state.js';
