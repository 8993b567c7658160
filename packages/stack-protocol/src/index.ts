export * from './delivery-outcome.js';
export * from './stack-state.js';
export * from './process-listening.js';
export * from './process-event.js';
