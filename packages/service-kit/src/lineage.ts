// What a saga service reports about one order for its lineage (GET
// /lineage/:orderId), as an entry point of its own: every saga service's
// declaration adds it to its routes, and the console assembles the answers.
export {
  registerLineageRoute,
  type LineageConsumer,
  type LineageRouteInput,
  type LineageTimerRow,
} from './lineage/lineage.routes.js';
export { serviceLineageRoute } from './lineage/service-lineage-route.js';
export { readMarkers, readOutboxRows } from './lineage/lineage.queries.js';
