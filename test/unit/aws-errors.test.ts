import { describe, expect, it } from 'vitest';
import { ConditionalCheckFailedException, InternalServerError, ProvisionedThroughputExceededException, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { isAwsUnavailable } from '../../infra/aws-client.ts';
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
    ['a request timeout (node-http-handler)', Object.assign(new Error('request has exceeded the configured 1000 ms requestTimeout'), { name: 'TimeoutError', code: 'ETIMEDOUT' })],
    ['a refused connection', socketError('ECONNREFUSED')],
    ['a dropped connection', socketError('ECONNRESET')],
    ['throttling', new ProvisionedThroughputExceededException({ message: 'slow down', ...meta(400) })],
    ['an internal server error', new InternalServerError({ message: 'oops', ...meta(500) })],
    ['a 503 from an unmodelled service error', Object.assign(new Error('Service Unavailable'), { name: 'Unknown', $fault: 'server', ...meta(503) })],
    ['a wrapped network error', Object.assign(new Error('send failed'), { cause: socketError('EPIPE') })],
  ])('is true for %s', (_what, err) => {
    expect(isAwsUnavailable(err)).toBe(true);
  });

  it.each([
    ['a failed condition', new ConditionalCheckFailedException({ message: 'The conditional request failed', ...meta(400) })],
    ['a missing table', new ResourceNotFoundException({ message: 'Requested resource not found', ...meta(400) })],
    ['a domain refusal', new NotFoundError('Booking')],
    ['a programming error', new TypeError("Cannot read properties of undefined (reading 'PK')")],
    ['a message that merely mentions a network code', new Error('connect ECONNREFUSED 10.0.0.7:5432')],
    ['nothing', undefined],
  ])('is false for %s', (_what, err) => {
    expect(isAwsUnavailable(err)).toBe(false);
  });
});
