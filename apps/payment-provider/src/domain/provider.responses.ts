// The answers the provider stores under an idempotency key and replays byte
// for byte. Errors that are not final (503, 409) are never stored.

export interface AuthorizationApproved {
  authorizationId: string;
  status: 'authorized';
  amountCents: number;
}

/** `unknown_token`: a token the card network does not know is a decline like any other. */
export type DeclineReason = 'card_declined' | 'unknown_token';

export interface AuthorizationDeclined {
  status: 'declined';
  reason: DeclineReason;
}

export interface AuthorizationVoided {
  authorizationId: string;
  status: 'voided';
}

export interface AuthorizationCaptured {
  authorizationId: string;
  status: 'captured';
  amountCents: number;
}

export type AuthorizeResponse =
  { status: 201; body: AuthorizationApproved } | { status: 402; body: AuthorizationDeclined };

export type VoidResponse = { status: 200; body: AuthorizationVoided };

export type CaptureResponse = { status: 200; body: AuthorizationCaptured };

export type StoredResponse = AuthorizeResponse | VoidResponse | CaptureResponse;

/** What an idempotency key was first used for; a key serves one operation only. */
export type Operation = 'authorize' | 'void' | 'capture';
