import { describe, expect, it } from 'vitest';
import {
  ConditionalCheckFailedException,
  InternalServerError,
  ProvisionedThroughputExceededException,
  ResourceNotFoundException,
} from '@aws-sdk/client-dynamodb';
import { MessageRejected, TooManyRequestsException } from '@aws-sdk/client-sesv2';
import { isAwsUnavailable, mayHaveBeenApplied, RetryWhenNotSent } from '../../infra/aws-client.ts';
import { NotFoundError } from '../../domain/errors.ts';

/*
 * The one place an SDK error is faked (narrow unit test of error translation): which
 * failures of an AWS call mean "storage unavailable, retry" (503) and which stay real
 * errors. The SDK's own exception classes are used where it has them.
 */
const meta = (httpStatusCode: number) => ({ $metadata: { httpStatusCode } });
const socketError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:8000`), { code });

describe('isAwsUnavailable', () => {
  it.each([
    [
      'a request timeout (node-http-handler)',
      Object.assign(new Error('request has exceeded the configured 1000 ms requestTimeout'), { name: 'TimeoutError', code: 'ETIMEDOUT' }),
    ],
    ['a refused connection', socketError('ECONNREFUSED')],
    ['a dropped connection', socketError('ECONNRESET')],
    ['throttling', new ProvisionedThroughputExceededException({ message: 'slow down', ...meta(400) })],
    ['an internal server error', new InternalServerError({ message: 'oops', ...meta(500) })],
    ['a 503 from an unmodelled service error', Object.assign(new Error('Service Unavailable'), { name: 'Unknown', $fault: 'server', ...meta(503) })],
    ['a wrapped network error', Object.assign(new Error('send failed'), { cause: socketError('EPIPE') })],
    ["SES's throttle (sending rate or daily quota)", new TooManyRequestsException({ message: 'Maximum sending rate exceeded.', ...meta(429) })],
  ])('is true for %s', (_what, err) => {
    expect(isAwsUnavailable(err)).toBe(true);
  });

  it.each([
    ['a failed condition', new ConditionalCheckFailedException({ message: 'The conditional request failed', ...meta(400) })],
    ['a missing table', new ResourceNotFoundException({ message: 'Requested resource not found', ...meta(400) })],
    ['SES refusing a message', new MessageRejected({ message: 'Email address is not verified.', ...meta(400) })],
    ['a domain refusal', new NotFoundError('Booking')],
    ['a programming error', new TypeError("Cannot read properties of undefined (reading 'PK')")],
    ['a message that merely mentions a network code', new Error('connect ECONNREFUSED 10.0.0.7:5432')],
    ['nothing', undefined],
  ])('is false for %s', (_what, err) => {
    expect(isAwsUnavailable(err)).toBe(false);
  });
});

describe('RetryWhenNotSent', () => {
  const timeout = Object.assign(new Error('request has exceeded the configured 1500 ms requestTimeout'), { name: 'TimeoutError', code: 'ETIMEDOUT' });
  const notConnected = Object.assign(new Error('the request socket did not establish a connection with the server within the configured timeout of 1000 ms.'), {
    name: 'TimeoutError',
  });
  const refused = socketError('ECONNREFUSED');
  const throttled = new ProvisionedThroughputExceededException({ message: 'slow down', ...meta(400) });

  it('tells a call that may have been applied (sent, no answer) from one that was never sent or was answered', () => {
    expect([timeout, socketError('ECONNRESET'), new Error('socket hang up')].map(mayHaveBeenApplied)).toEqual([true, true, true]);
    expect([notConnected, refused, throttled, new InternalServerError({ message: 'oops', ...meta(500) })].map(mayHaveBeenApplied)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it('retries throttling, a 5xx or a refused connection up to the attempt limit, never a timed-out call', async () => {
    const strategy = new RetryWhenNotSent(2);
    const first = await strategy.acquireInitialRetryToken();

    const retry = await strategy.refreshRetryTokenForRetry(first, { errorType: 'THROTTLING', error: throttled });
    await expect(strategy.refreshRetryTokenForRetry(first, { errorType: 'TRANSIENT', error: refused })).resolves.toBeDefined();
    await expect(strategy.refreshRetryTokenForRetry(first, { errorType: 'TRANSIENT', error: timeout })).rejects.toBe(timeout);
    await expect(strategy.refreshRetryTokenForRetry(retry, { errorType: 'THROTTLING', error: throttled })).rejects.toBe(throttled);
    await expect(strategy.refreshRetryTokenForRetry(first, { errorType: 'CLIENT_ERROR', error: refused })).rejects.toBe(refused);

    expect(retry.getRetryCount()).toBe(1);
    expect(retry.getRetryDelay()).toBeGreaterThanOrEqual(0);
    expect(retry.getRetryDelay()).toBeLessThanOrEqual(100);
  });
});
