export { API_VERSION, buildOpenApiDocument } from './build-openapi-document.js';
export * from './gateway.api.js';
export {
  PROBLEMS,
  problemTypeOf,
  type DocumentedProblem,
  type ProblemCode,
} from './problem-catalogue.js';
