import { Logger } from '@aws-lambda-powertools/logger';

/**
 * Structured JSON logs. The HTTP stack appends `requestId` to every line of a request and
 * resets it afterwards. Nothing secret is ever passed to the logger: keys, secrets and
 * Authorization headers stay out of log calls by construction. The level comes from
 * `LOG_LEVEL` (listed in .env.example), which Powertools reads itself.
 */
export const logger = new Logger({ serviceName: 'partner-distribution' });
