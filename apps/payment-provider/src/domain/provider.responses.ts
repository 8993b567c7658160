// The answers the provider stores under an idempotency key and replays byte
// for byte. Errors that are not final (503, 409) are never stored.

export interface AuthorizationApproved {
  authorizationId: string;
  status: 'authorized';
  amountCents: number;
}

export interface AuthorizationDeclined {
  status: 'declined';
  reason: 'card_declined';
}

export interface AuthorizationVoided {
  authorizationId: string;
  status: 'voided';
}

export type AuthorizeResponse =
  { status: 201; body: AuthorizationApproved } | { status: 402; body: AuthorizationDeclined };

export type VoidResponse = { status: 200; body: AuthorizationVoided };

export type StoredResponse = AuthorizeResponse | VoidResponse;

/** What an idempotency key was first used for; a key serves one operation only. */
export type Operation = 'authorize' | 'void';
