import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../domain/errors.ts';
import { endpointBody, endpointFields, fieldOf, parseHeaderLines } from '../../functions/console/partner-webhook-form.ts';

/* The console's endpoint form read into the API's own body: the same fields, the same refusals, each naming its field. */

const form = (fields: Record<string, string | string[]>) => {
  const f = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) f.append(k, one);
  return f;
};
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (err) {
    if (err instanceof ValidationError) return { param: err.param, field: fieldOf(err.param), message: err.message };
    throw err;
  }
  throw new Error('not refused');
};

describe('console webhook endpoint form', () => {
  it('reads every field the API takes: scheme, secret, headers, retries, status', () => {
    const body = endpointBody(
      form({
        url: 'https://hooks.example.in/a',
        description: 'Rates',
        eventTypes: ['rate.changed'],
        authType: 'Bearer',
        authSecret: 'tok_123',
        headers: 'X-Env: prod\r\n\r\nX-Team:  stays ',
        maxAttempts: '5',
        timeoutSeconds: '20',
        status: 'DISABLED',
      }),
      'update',
    );
    expect(body).toEqual({
      url: 'https://hooks.example.in/a',
      description: 'Rates',
      eventTypes: ['rate.changed'],
      authType: 'Bearer',
      authSecret: 'tok_123',
      headers: { 'X-Env': 'prod', 'X-Team': 'stays' },
      maxAttempts: 5,
      timeoutSeconds: 20,
      status: 'DISABLED',
    });
  });

  it('keeps a stored secret when its box is empty, and leaves the retry defaults to the use case on create', () => {
    const body = endpointBody(form({ url: 'https://hooks.example.in/b', authType: 'None', authSecret: '', maxAttempts: '', headers: '' }), 'create');
    expect(body).not.toHaveProperty('authSecret');
    expect(body).not.toHaveProperty('maxAttempts');
    expect(body.headers).toEqual({});
    expect(body.eventTypes).toBeNull();
    // create has no status field: a new endpoint is ACTIVE
    expect(endpointBody(form({ url: 'https://hooks.example.in/b', status: 'DISABLED' }), 'create')).not.toHaveProperty('status');
  });

  it.each([
    [{ url: '' }, 'url', 'url'],
    [{ url: 'not a url' }, 'url', 'url'],
    [{ url: 'https://h.example.in', maxAttempts: '99' }, 'maxAttempts', 'maxAttempts'],
    [{ url: 'https://h.example.in', maxAttempts: 'eight' }, 'maxAttempts', 'maxAttempts'],
    [{ url: 'https://h.example.in', timeoutSeconds: '0' }, 'timeoutSeconds', 'timeoutSeconds'],
    [{ url: 'https://h.example.in', authType: 'Digest' }, 'authType', 'authType'],
    [{ url: 'https://h.example.in', eventTypes: 'booking.created' }, 'eventTypes[0]', 'eventTypes'],
    [{ url: 'https://h.example.in', headers: 'no colon here' }, 'headers', 'headers'],
    [{ url: 'https://h.example.in', headers: 'X-A: 1\nX-A: 2' }, 'headers.X-A', 'headers'],
  ])('refuses %j naming %s', (fields, param, field) => {
    const got = refusal(() => endpointBody(form(fields), 'update'));
    expect(got.param).toBe(param);
    expect(got.field).toBe(field);
  });

  it('places the use case’s refusals on their fields (header names, the HMAC signing secret)', () => {
    expect(fieldOf('headers.Authorization')).toBe('headers');
    expect(fieldOf('signingSecret')).toBe('authType');
    expect(fieldOf('somethingElse')).toBe('form');
    expect(parseHeaderLines('A: b: c')).toEqual({ A: 'b: c' });
  });

  it('never carries a secret back into the form, even on a refused one', () => {
    const typed = form({ url: 'https://h.example.in', authType: 'Bearer', authSecret: 'tok_never_shown', maxAttempts: '99' });
    const markup = endpointFields('edit', undefined, { field: 'maxAttempts', message: 'too many' }, typed).markup;
    expect(markup).not.toContain('tok_never_shown');
    expect(markup).toContain('aria-invalid="true" aria-describedby="edit-maxAttempts-error');
    expect(markup).toContain('value="99"');
  });
});
