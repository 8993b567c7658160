// The provider's final answers, in the domain's words. Failures (timeouts,
// errors, a request still in flight) are not answers: the adapter reports them
// as retryable or terminal failures and nothing is recorded.

export type AuthorizationAnswer =
  | { readonly kind: 'authorized'; readonly authorizationId: string; readonly amountCents: number }
  | { readonly kind: 'declined'; readonly reason: string }
  /**
   * The attempt's key was closed at the provider with nothing stored under it:
   * no authorization exists and none can appear. What `closeAuthorizationKey`
   * answers when the provider never authorized, and what `authorize` answers
   * once the key is closed.
   */
  | { readonly kind: 'closed' };
