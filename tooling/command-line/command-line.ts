// What every `pnpm` command of this repository does with its arguments before
// its own work: `--help` (or `-h`) prints its usage and exits 0, and an
// unknown option or a bad argument is refused in one line on stderr, exit 2,
// with no stack trace (tooling/command-line/commands.unit.spec.ts runs each).
import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

export interface CommandLine<O extends Options> {
  /** As typed after `pnpm`: `migrations:check`, `new`. */
  readonly name: string;
  /** What `--help` prints: how to call it and what it does. */
  readonly usage: string;
  readonly options?: O;
  /** How many words may follow the options; 0 when omitted. */
  readonly positionals?: { min: number; max: number };
}

/** Ends the process with the one-line refusal every command gives a bad argument. */
export function refuse(name: string, problem: string): never {
  process.stderr.write(`pnpm ${name}: ${problemLine(problem)} (pnpm ${name} --help for usage)\n`);
  process.exit(2);
}

/**
 * A problem as one line: its first line, without Node's advice on `--`
 * (these commands take no word starting with '-').
 *
 * @example
 * problemLine("Unknown option '--x'. To specify a positional argument starting with a '-', ..."); // "Unknown option '--x'"
 */
export function problemLine(message: string): string {
  const first = message.split('\n')[0] ?? message;
  return first.split('. To specify a positional argument')[0] ?? first;
}

/**
 * @example
 * const { values, positionals } = parseCommandLine({
 *   name: 'lab:remove',
 *   usage: 'usage: pnpm lab:remove [--dry-run] [--no-install]\n...',
 *   options: { 'dry-run': { type: 'boolean', default: false } },
 * });
 */
export function parseCommandLine<O extends Options>(
  command: CommandLine<O>,
  argv: readonly string[] = process.argv.slice(2),
) {
  const words = argv.filter((word) => word !== '--');
  if (words.includes('--help') || words.includes('-h')) {
    process.stdout.write(command.usage.endsWith('\n') ? command.usage : `${command.usage}\n`);
    process.exit(0);
  }
  const options = (command.options ?? {}) as O;
  let parsed: ReturnType<typeof parseArgs<{ options: O; allowPositionals: true; args: string[] }>>;
  try {
    parsed = parseArgs({ args: words, options, allowPositionals: true, strict: true });
  } catch (error) {
    refuse(command.name, error instanceof Error ? error.message : String(error));
  }
  const { min, max } = command.positionals ?? { min: 0, max: 0 };
  const count = parsed.positionals.length;
  if (count > max) refuse(command.name, `unexpected argument '${String(parsed.positionals[max])}'`);
  if (count < min) refuse(command.name, `missing argument`);
  return parsed;
}
