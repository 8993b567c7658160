// Event names in the docs must be the contracts' event types: in a code span
// (`OrderPlaced`) and in a Mermaid diagram's text. A word counts as an event
// name when it is written like one: two or more capitalised words ending in a
// word some real event type ends in (`PaymentRequested` ends like
// `OrderPaymentRequested`, so it is checked, and refused).
import type { Failure, Page } from './repository.js';

const PASCAL_WORDS = /[A-Z][a-z]+/g;
const PASCAL_NAME = /^(?:[A-Z][a-z]+){2,}$/;

function words(name: string): string[] {
  return name.match(PASCAL_WORDS) ?? [];
}

/** The names in a text that look like event types: PascalCase, ending like one of `types`. */
export function eventLikeNames(text: string, types: readonly string[]): string[] {
  const endings = new Set(types.map((type) => words(type).at(-1)));
  return [...text.matchAll(/\b[A-Z]\w*\b/g)]
    .map((match) => match[0])
    .filter((name) => PASCAL_NAME.test(name) && endings.has(words(name).at(-1)));
}

export function checkEventNames(page: Page, types: readonly string[]): Failure[] {
  const known = new Set(types);
  const failures: Failure[] = [];
  const check = (names: string[], line: number, where: string): void => {
    for (const name of names.filter((candidate) => !known.has(candidate))) {
      failures.push({
        file: page.file,
        line,
        message: `\`${name}\`${where} is written like an event, but packages/contracts defines no event of that type`,
      });
    }
  };
  for (const line of page.markdown.lines) {
    for (const span of line.codeSpans) {
      if (PASCAL_NAME.test(span.text)) check(eventLikeNames(span.text, types), line.number, '');
    }
  }
  for (const fence of page.markdown.fences.filter((f) => f.info.trim() === 'mermaid')) {
    fence.body.forEach((text, index) => {
      check(eventLikeNames(text, types), fence.line + 1 + index, ' in a Mermaid diagram');
    });
  }
  return failures;
}
