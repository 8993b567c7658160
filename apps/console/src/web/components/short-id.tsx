// A long id shown by its first 8 characters. The full id stays available: as a
// tooltip, and for screen readers and copy-paste in a visually hidden span.
import { shortId } from '../model/format.js';

export function ShortId({ id }: { readonly id: string }) {
  return (
    <span class="id" title={id}>
      <span aria-hidden="true">{shortId(id)}</span>
      <span class="visually-hidden">{id}</span>
    </span>
  );
}
