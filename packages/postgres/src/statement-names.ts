// Which statements a pool runs as named prepared statements.
//
// node-postgres sends a statement with parameters as an unnamed statement:
// PostgreSQL parses, analyses and plans it on every call. Given a name, it is
// parsed once per session and later calls skip the Parse (node-postgres still
// sends Bind, Describe and Execute). In a loop of the idempotent consumer's
// claim, update and commit, that took the raw pg loop from about 1,400 to 1,700
// transactions per second at one client and 2,170 to 2,730 at four
// (docs/adr/0029-prepared-statements.md).
//
// Only statements with parameters are named: they already use the extended
// protocol, so nothing else changes for them, while a statement without
// parameters may hold several commands (a migration), which only the simple
// protocol accepts.

/** The default number of statement texts a pool prepares. */
export const DEFAULT_MAX_PREPARED_STATEMENTS = 200;

/** Names are unique in the process, so two dialects over one pool never give one name two texts. */
let lastName = 0;

/**
 * Names the statement texts of one pool: the same text always gets the same
 * name, so every session of the pool prepares it under that name. Once `limit`
 * texts have a name, new texts run unnamed, so statements built with a
 * varying shape (a VALUES list as long as its rows) cannot fill each session
 * with plans used once.
 */
export class StatementNames {
  readonly #names = new Map<string, string>();

  constructor(readonly limit: number) {}

  /** The name to run `text` under, or undefined to run it unnamed. */
  nameFor(text: string, parameterCount: number): string | undefined {
    if (parameterCount === 0) return undefined;
    const known = this.#names.get(text);
    if (known !== undefined || this.#names.size >= this.limit) return known;
    lastName += 1;
    const name = `eo_${String(lastName)}`;
    this.#names.set(text, name);
    return name;
  }
}
