import { routes } from '../router.js';

export function NotFoundView({ hash }: { readonly hash: string }) {
  return (
    <section aria-labelledby="view-title">
      <h2 id="view-title" tabIndex={-1}>
        Not found
      </h2>
      <p role="status">No view has the address {hash}.</p>
      <p>
        <a href={routes.orders}>Go to the orders</a>
      </p>
    </section>
  );
}
