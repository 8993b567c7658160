export * from './lab-stack-state.js';
