// The names one scaffolded piece is known by, derived once from what the user
// typed, so every template spells the table, the type and the consumer alike.

/** Lower-case words joined by "-": what consumer and service names are made of. */
const KEBAB = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
/** The same shape defineConsumer and the consumer-name-has-version rule accept. */
const VERSIONED = /^(?<base>.+)-v(?<version>[1-9][0-9]*)$/;
/** PostgreSQL keeps 63 bytes of an identifier; `_pkey` and a prefix must still fit. */
const MAX_NAME_LENGTH = 40;

/** Input the scaffolder refuses; the message says what to type instead. */
export class ScaffoldError extends Error {
  override readonly name = 'ScaffoldError';
}

export interface Names {
  /** `loyalty-points`: file names. */
  readonly kebab: string;
  /** `loyalty_points`: table and column names. */
  readonly snake: string;
  /** `loyaltyPoints`: variables and functions. */
  readonly camel: string;
  /** `LoyaltyPoints`: types. */
  readonly pascal: string;
}

export interface ConsumerNames extends Names {
  /** `loyalty-points-v1`: the consumer's name and subscription group. */
  readonly consumer: string;
}

const words = (kebab: string): string[] => kebab.split('-');
const capitalise = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

/** Every spelling of a kebab-case name. */
export function namesOf(kebab: string): Names {
  const [first = '', ...rest] = words(kebab);
  return {
    kebab,
    snake: words(kebab).join('_'),
    camel: first + rest.map(capitalise).join(''),
    pascal: words(kebab).map(capitalise).join(''),
  };
}

function checkKebab(kind: string, name: string): void {
  if (!KEBAB.test(name) || name.length > MAX_NAME_LENGTH) {
    throw new ScaffoldError(
      `${kind} name ${JSON.stringify(name)} is not lower-case words joined by "-" ` +
        `(at most ${String(MAX_NAME_LENGTH)} characters), such as "loyalty-points".`,
    );
  }
}

/**
 * A consumer's names from what the user typed: `loyalty-points` becomes
 * `loyalty-points-v1`; a name that already ends in `-v<n>` keeps its version.
 *
 * @example
 * consumerNames('loyalty-points').consumer; // 'loyalty-points-v1'
 */
export function consumerNames(typed: string): ConsumerNames {
  checkKebab('Consumer', typed);
  const versioned = VERSIONED.exec(typed)?.groups;
  const base = versioned?.['base'] ?? typed;
  // `foo-v1-v2` would make consumer foo-v1-v2 with files foo-v1.* and table foo_v1.
  if (VERSIONED.test(base)) {
    throw new ScaffoldError(
      `Consumer name ${JSON.stringify(typed)} carries two versions; give the name without one ` +
        `("${VERSIONED.exec(base)?.groups?.['base'] ?? base}", the scaffolder adds -v1) or with one version at the end.`,
    );
  }
  const version = versioned?.['version'] ?? '1';
  return { ...namesOf(base), consumer: `${base}-v${version}` };
}

/** A service's names; versions belong to consumers, not services. */
export function serviceNames(typed: string): Names {
  checkKebab('Service', typed);
  if (VERSIONED.test(typed)) {
    throw new ScaffoldError(
      `Service name ${JSON.stringify(typed)} ends in a version; only consumer names carry one.`,
    );
  }
  return namesOf(typed);
}
