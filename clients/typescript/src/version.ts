/** This package's version; a unit test keeps it equal to package.json's. */
export const VERSION = '1.1.0';

/**
 * `User-Agent` of every request: the caller's application first (when given), then this client
 * and the runtime, so the service's operators can tell callers and client versions apart.
 */
export function userAgent(application?: string): string {
  const own = `partner-distribution-client-ts/${VERSION} node/${globalThis.process?.versions?.node ?? 'unknown'}`;
  const app = application?.trim();
  return app ? `${app} ${own}` : own;
}
