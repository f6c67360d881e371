/** Checks an outbound URL (callbackUrl, webhook url) at request time; throws ValidationError naming `param`. */
export interface UrlGuard {
  assertAllowed(param: string, url: string): Promise<void>;
}
