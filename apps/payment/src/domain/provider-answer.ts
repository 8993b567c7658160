// The provider's final answers, in the domain's words. Failures (timeouts,
// errors, a request still in flight) are not answers: the adapter reports them
// as retryable or terminal failures and nothing is recorded.

export type AuthorizationAnswer =
  | { readonly kind: 'authorized'; readonly authorizationId: string; readonly amountCents: number }
  | { readonly kind: 'declined'; readonly reason: string };
