import { afterEach, describe, expect, it, vi } from 'vitest';
import { logger, REDACTED } from '../../infra/logger.ts';

/** The lines the service's logger writes while `run` runs, as text (what CloudWatch would keep). */
function loggedText(run: () => void): string {
  const written: string[] = [];
  const capture = (chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  };
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  try {
    run();
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  return written.join('');
}

afterEach(() => vi.restoreAllMocks());

const guest = { firstName: 'Zephyrine', lastName: 'Quillfeather', email: 'zephyrine.q@example.org', phone: '+91 98765 43210', dob: '1990-02-03', position: 1 };

describe('logger (guest personal data redaction)', () => {
  it('writes no guest name, e-mail, phone or date of birth, at any depth', () => {
    // prepare
    const attrs = {
      bookingRef: 'ref-1',
      booking: { primaryGuest: guest, additionalGuests: [guest], specialRequests: 'Zephyrine wants a cot' },
      channex: {
        customer: { name: 'Zephyrine', surname: 'Quillfeather', mail: guest.email, phone: guest.phone },
        rooms: [{ guests: [{ name: 'Zephyrine' }] }],
      },
      flat: { firstName: 'Zephyrine', lastName: 'Quillfeather', email: guest.email, phone: guest.phone },
    };

    // act
    const text = loggedText(() => logger.error('something about a booking', attrs));

    // assess
    expect(text).toContain('ref-1');
    for (const value of ['Zephyrine', 'Quillfeather', 'zephyrine.q@example.org', '98765', '1990-02-03']) expect(text).not.toContain(value);
    const line = JSON.parse(text.trim().split('\n').at(-1)!) as Record<string, any>;
    expect(line.booking.primaryGuest).toBe(REDACTED);
    expect(line.flat.email).toBe(REDACTED);
  });

  it('masks an e-mail address quoted inside a message or any other string', () => {
    // act
    const text = loggedText(() => logger.error('receiver said: unknown user zephyrine.q@example.org (404)', { detail: 'to: <zephyrine.q@example.org>' }));

    // assess
    expect(text).not.toContain('zephyrine.q@example.org');
    expect(text).toContain(`unknown user ${REDACTED} (404)`);
  });

  it('leaves ids, codes and amounts as they are', () => {
    // act
    const text = loggedText(() => logger.error('settled', { bookingRef: 'ref-2', amount: 1234, code: 'ABC-12' }));

    // assess
    const line = JSON.parse(text.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(line).toMatchObject({ bookingRef: 'ref-2', amount: 1234, code: 'ABC-12' });
  });
});
