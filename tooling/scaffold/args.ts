// The command line of `pnpm new`, parsed into one of its commands or refused
// with the usage.
import { parseArgs } from 'node:util';
import { ScaffoldError } from './names.js';

export const USAGE = `usage:
  pnpm new consumer <service> <name> --on <EventType> [--emit <EventType>]
  pnpm new service <name> [--on <EventType>] [--consumer <name>]
  add --dry-run to list the files without writing them`;

export type Command =
  | { kind: 'consumer'; service: string; name: string; on: string; emit?: string; dryRun: boolean }
  | { kind: 'service'; name: string; on: string; consumer?: string; dryRun: boolean };

/**
 * @example
 * parseCommand(['consumer', 'payment', 'loyalty-points', '--on', 'OrderConfirmed']);
 */
export function parseCommand(argv: readonly string[]): Command {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        on: { type: 'string' },
        emit: { type: 'string' },
        consumer: { type: 'string' },
        'dry-run': { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    throw new ScaffoldError(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
  const { positionals, values } = parsed;
  const [kind, ...rest] = positionals;
  const dryRun = values['dry-run'];
  if (kind === 'consumer' && rest.length === 2 && rest[0] !== undefined && rest[1] !== undefined) {
    if (values.on === undefined)
      throw new ScaffoldError(`A consumer needs --on <EventType>.\n${USAGE}`);
    if (values.consumer !== undefined)
      throw new ScaffoldError(`--consumer is for \`new service\`.\n${USAGE}`);
    return {
      kind,
      service: rest[0],
      name: rest[1],
      on: values.on,
      ...(values.emit === undefined ? {} : { emit: values.emit }),
      dryRun,
    };
  }
  if (kind === 'service' && rest.length === 1 && rest[0] !== undefined) {
    if (values.emit !== undefined)
      throw new ScaffoldError(`--emit is for \`new consumer\`.\n${USAGE}`);
    return {
      kind,
      name: rest[0],
      on: values.on ?? 'OrderConfirmed',
      ...(values.consumer === undefined ? {} : { consumer: values.consumer }),
      dryRun,
    };
  }
  throw new ScaffoldError(USAGE);
}
