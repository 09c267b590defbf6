import { errors } from 'jose';

/**
 * Why the authorizer refused a token, in a fixed vocabulary: the `reason` of its log line and the
 * `reason` dimension of the AuthorizerDenials metric. The client never learns it: every refusal is
 * the same 401 problem, so that a caller probing with forged tokens learns nothing.
 */
export const TOKEN_REFUSAL_REASONS = [
  /** No `Authorization` header. */
  'missing',
  /** A header that is no bearer token, or a token that is no well-formed JWT. */
  'malformed',
  /** Past its `exp` (beyond the clock tolerance). */
  'expired',
  /** Before its `nbf`, or issued in the future. */
  'not_yet_valid',
  /** A signature the issuer's key does not verify. */
  'bad_signature',
  /** Signed with a key id the issuer's key set does not hold (after fetching it again). */
  'unknown_key',
  /** An algorithm other than the pinned one (`none`, HS256, …). */
  'wrong_algorithm',
  'wrong_issuer',
  /** Meant for another audience, or (Cognito) another app client or token use. */
  'wrong_audience',
  /** Without a claim the API needs (`sub`, `exp`). */
  'missing_claim',
  /** A valid token whose subject is no user. */
  'unknown_subject',
  /** A subject that more than one user answers to (which subject claims prevent). */
  'ambiguous_subject',
  /** Any other verification failure. */
  'invalid',
] as const;

/** One of {@link TOKEN_REFUSAL_REASONS}. */
export type TokenRefusalReason = (typeof TOKEN_REFUSAL_REASONS)[number];

/** The reason of a request the authorizer could not decide: the issuer's key set could not be had (503). */
export const IDENTITY_PROVIDER_UNAVAILABLE = 'idp_unavailable';

/** Claims whose failed check says the token is not valid yet. */
const TIME_CLAIMS: ReadonlySet<string> = new Set(['nbf', 'iat']);

/** The refusal reason of a failed claim check. */
function claimReason(error: errors.JWTClaimValidationFailed): TokenRefusalReason {
  if (error.reason === 'missing') return 'missing_claim';
  if (error.reason === 'invalid') return 'malformed';
  if (error.claim === 'iss') return 'wrong_issuer';
  if (error.claim === 'aud') return 'wrong_audience';
  return TIME_CLAIMS.has(error.claim) ? 'not_yet_valid' : 'invalid';
}

/** Reasons by the code of the jose error that refused a token. */
const JOSE_REASONS: Readonly<Record<string, TokenRefusalReason>> = {
  [errors.JWTExpired.code]: 'expired',
  [errors.JWSSignatureVerificationFailed.code]: 'bad_signature',
  [errors.JWSInvalid.code]: 'malformed',
  [errors.JWTInvalid.code]: 'malformed',
  [errors.JOSEAlgNotAllowed.code]: 'wrong_algorithm',
  [errors.JOSENotSupported.code]: 'wrong_algorithm',
  [errors.JWKSNoMatchingKey.code]: 'unknown_key',
  [errors.JWKSMultipleMatchingKeys.code]: 'unknown_key',
};

/** Why jose refused a token. */
export function refusalReasonOf(error: errors.JOSEError): TokenRefusalReason {
  if (error instanceof errors.JWTClaimValidationFailed) return claimReason(error);
  return JOSE_REASONS[error.code] ?? 'invalid';
}
