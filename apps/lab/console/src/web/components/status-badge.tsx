// A state written as a word in a tinted box: the word carries the meaning, the
// colour only repeats it (never colour alone).
export type Tone = 'good' | 'bad' | 'warn' | 'neutral';

export function StatusBadge({ text, tone }: { readonly text: string; readonly tone: Tone }) {
  return <span class={`badge badge-${tone}`}>{text}</span>;
}

/** The tone of the words the console shows: order and run statuses, outcomes, invariant checks. */
export function toneOf(text: string): Tone {
  switch (text) {
    case 'confirmed':
    case 'applied':
    case 'passed':
    case 'held':
    case 'authorized':
    case 'captured':
    case 'PASS':
      return 'good';
    case 'cancelled':
    case 'parked':
    case 'failed':
    case 'broken':
    case 'FAIL':
    case 'terminal_failure':
      return 'bad';
    case 'duplicate':
    case 'retried':
    case 'cancelling':
    case 'voided':
    case 'retryable_failure':
    case 'never ended':
      return 'warn';
    default:
      return 'neutral';
  }
}

export function Badge({ text }: { readonly text: string }) {
  return <StatusBadge text={text} tone={toneOf(text)} />;
}
