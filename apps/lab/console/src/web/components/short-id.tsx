// A long id shown by its first 8 characters. The full id stays available: as a
// tooltip, and for screen readers and copy-paste in a visually hidden span.
import { shortId, shortStreamName } from '../model/format.js';

/**
 * `kind`: an id is cut to its first 8 characters; a key such as the payment's
 * `authorize:<attempt id>` keeps its prefix and shortens the UUID inside it.
 */
export function ShortId({
  id,
  kind = 'id',
}: {
  readonly id: string;
  readonly kind?: 'id' | 'key';
}) {
  return (
    <span class="id" title={id}>
      <span aria-hidden="true">{kind === 'id' ? shortId(id) : shortStreamName(id)}</span>
      <span class="visually-hidden">{id}</span>
    </span>
  );
}
