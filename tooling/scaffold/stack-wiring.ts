// How a new service joins `pnpm start`: one line in the supervisor's list of
// added services (apps/supervisor/src/added-services.ts), which gives it a
// database, a port and the saga services' environment.
import { ScaffoldError } from './names.js';
import type { ServiceTemplateInput } from './templates/service-files.js';
import type { ChangeSet } from './tree.js';

export const ADDED_SERVICES_FILE = 'apps/supervisor/src/added-services.ts';

export function wireIntoStack(changes: ChangeSet, input: ServiceTemplateInput): void {
  if (!changes.exists(ADDED_SERVICES_FILE)) {
    throw new ScaffoldError(
      `${ADDED_SERVICES_FILE} is missing: the supervisor has no list of added services to join.`,
    );
  }
  changes.edit(ADDED_SERVICES_FILE, (source) => {
    const list = /export const ADDED_SERVICES: readonly AddedService\[\] = \[/.exec(source);
    const end = list === null ? -1 : source.indexOf('];', list.index);
    if (list === null || end === -1) {
      throw new ScaffoldError(`${ADDED_SERVICES_FILE}: found no ADDED_SERVICES list.`);
    }
    const entry = `  { name: '${input.names.kebab}', fixedPort: ${String(input.port)} },\n`;
    return source.slice(0, end) + entry + source.slice(end);
  });
}
