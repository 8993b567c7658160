// One run of `pnpm new`: parse, plan every file, format, write, and say what
// was written and what to run next.
import { parseCommand, type Command } from './args.js';
import { loadContracts, type Contracts } from './contracts.js';
import { formatChanges } from './format.js';
import { planConsumer } from './new-consumer.js';
import { planService } from './new-service.js';
import { consumerNames } from './names.js';
import { ChangeSet, Tree } from './tree.js';

function plan(
  tree: Tree,
  command: Command,
  context: { now: Date; contracts: Contracts },
): ChangeSet {
  const changes = new ChangeSet(tree);
  switch (command.kind) {
    case 'consumer':
      planConsumer(changes, { ...command, ...context });
      break;
    case 'service':
      planService(changes, { ...command, ...context });
      break;
  }
  return changes;
}

function nextSteps(command: Command): string[] {
  const consumer = command.kind === 'consumer' ? command.name : (command.consumer ?? command.name);
  const service = command.kind === 'consumer' ? command.service : command.name;
  const steps = [
    ...(command.kind === 'service'
      ? ['pnpm install --offline   # links the new app; `pnpm start` runs it from then on']
      : []),
    `npx vitest run --project integration apps/${service}/src/${consumerNames(consumer).kebab}/${consumerNames(consumer).kebab}.consumer.int.spec.ts`,
    'pnpm migrations:lock      # once the migration says what you want: it is released from then on',
  ];
  return steps;
}

/** Runs one `pnpm new` command in the repository at `root`; returns the report to print. */
export async function scaffold(input: {
  root: string;
  argv: readonly string[];
  now: Date;
}): Promise<string> {
  const command = parseCommand(input.argv);
  const contracts = await loadContracts(input.root);
  const changes = plan(new Tree(input.root), command, { now: input.now, contracts });
  await formatChanges(input.root, changes);
  if (!command.dryRun) changes.write();
  const verb = command.dryRun ? 'would' : '';
  const lines = [
    ...[...changes.created.keys()].map((file) => `${verb ? 'would create' : 'created'} ${file}`),
    ...[...changes.edited.keys()].map((file) => `${verb ? 'would edit' : 'edited '} ${file}`),
  ];
  if (command.dryRun) return lines.join('\n');
  return [...lines, '', 'next:', ...nextSteps(command).map((step) => `  ${step}`)].join('\n');
}
