export { zodArbitrary, zodStructureArbitrary, type Overrides } from './zod-arbitrary.js';
