// Generated files leave formatted by the repository's own prettier settings,
// so `prettier --check` passes on them as written.
import path from 'node:path';
import * as prettier from 'prettier';
import type { ChangeSet } from './tree.js';

export async function formatChanges(root: string, changes: ChangeSet): Promise<void> {
  for (const [file, source] of changes.files()) {
    if (!/\.(?:ts|json|md)$/.test(file)) continue;
    const filepath = path.join(root, file);
    const options = (await prettier.resolveConfig(filepath)) ?? {};
    const formatted = await prettier.format(source, { ...options, filepath });
    changes.edit(file, () => formatted);
  }
}
