import { backfillErasureIndex } from '../../domain/guests/backfill-erasure-index.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { eraseGuestsByEmail, eraseGuestsOfBooking, type ErasureResult } from '../../domain/guests/erase-guest-data.ts';
import { guestErasureDeps } from '../../infra/compose/admin.ts';
import { columns, UsageError, type CommandSpec } from './command.ts';

const OUTCOME_WORDS: Record<ErasureResult['outcome'], string> = {
  erased: 'erased',
  'already-erased': 'already erased',
  'not-due': 'not due',
  busy: 'busy (an amendment in flight or the booking kept changing): run again',
};

const table = (results: readonly ErasureResult[]): string[] =>
  columns(
    [['BOOKING', 'CODE', 'GROUP', 'OUTCOME'], ...results.map((r) => [r.bookingId ?? r.bookingRef, r.code, r.agentGroupId, OUTCOME_WORDS[r.outcome]])],
    '',
  );

export const guestsErase: CommandSpec = {
  path: ['guests', 'erase'],
  summary: "Erase a guest's personal data now (on request): names become [erased], e-mail, phone and the rest are removed.",
  details:
    "By booking (--booking: its booking id SIM-…, booking code PB-… or, with --group, the partner's externalBookingId; --group narrows the search) or by e-mail across one group " +
    '(--email with --group: every booking where a guest has that e-mail). Refused while the stay has not ended (check-out date not yet past ' +
    'in India, unless cancelled or failed); by e-mail, one such booking refuses them all and nothing is erased. Invoices are untouched ' +
    '(they name the bill-to business, never the guest). Without a request the daily job erases guest data GUEST_RETENTION_DAYS after the stay ends.',
  options: [
    {
      name: 'booking',
      value: '<id>',
      description: "The booking whose guest data to erase: booking id (SIM-…), booking code (PB-…) or, with --group, the partner's externalBookingId.",
    },
    { name: 'email', value: '<email>', description: "A guest's e-mail: erase every booking of --group with a guest of that e-mail.", param: 'email' },
    { name: 'group', value: '<groupId>', description: "The agent group (required with --email and with a partner's externalBookingId)." },
  ],
  examples: ['guests erase --booking SIM-3F2A9C1B7D4E --as priya@ops', 'guests erase --email guest@example.com --group acme-retail --as priya@ops'],
  async run(args, ctx) {
    // The operator is the tool's own --as / ADMIN_OPERATOR (required for every change, recorded in the audit trail).
    const [bookingId, email, agentGroupId, operator] = [args.text('booking'), args.text('email'), args.text('group'), ctx.origin()];
    if ((bookingId === undefined) === (email === undefined))
      throw new UsageError('Give exactly one of --booking or --email.', bookingId === undefined ? '--booking' : '--email');
    if (email !== undefined && agentGroupId === undefined)
      throw new UsageError('--email needs --group: an e-mail is looked up within one agent group.', '--group');
    const deps = guestErasureDeps(ctx.services());
    const results =
      bookingId !== undefined
        ? [await eraseGuestsOfBooking(deps, { bookingId, agentGroupId, operator })]
        : await eraseGuestsByEmail(deps, { email: email!, agentGroupId: agentGroupId!, operator });
    ctx.out.result({ results }, () => table(results));
  },
};

export const guestsBackfillIndex: CommandSpec = {
  path: ['guests', 'backfill-index'],
  summary: 'Put bookings settled before the erasure index existed on it, so the daily erasure finds them (run once after deploying it).',
  details: [
    "The daily job finds bookings whose retention ran out through an index that every settled booking joins when it is written. Bookings settled before that index was deployed carry none and would keep their guest data for ever; this reads each group's bookings and indexes the settled ones that still hold guest data.",
    'Idempotent and resumable: a booking already indexed (or written since, which indexes it) is left alone, so an interrupted run is simply run again. Safe beside live traffic (one conditional write at a time).',
  ].join('\n'),
  options: [{ name: 'group', value: '<groupId>', description: 'Only this agent group (default: every group).' }],
  examples: ['guests backfill-index --as priya@ops', 'guests backfill-index --group acme-retail --as priya@ops'],
  async run(args, ctx) {
    const svc = ctx.services();
    const only = args.text('group');
    if (only !== undefined && !(await svc.tenants.getAgentGroup(only))) throw new NotFoundError('Agent group');
    const groups = only !== undefined ? [only] : (await svc.tenants.listAgentGroups()).map((g) => g.agentGroupId);
    const results = [];
    for (const [i, g] of groups.entries()) {
      const r = await backfillErasureIndex(svc, g);
      results.push(r);
      ctx.out.progress(`[${i + 1}/${groups.length}] ${g}: ${r.looked} bookings read, ${r.erasable} settled with guest data, ${r.indexed} newly indexed`);
    }
    const indexed = results.reduce((n, r) => n + r.indexed, 0);
    ctx.out.result({ groups: results, indexed }, () => [`${results.length} groups: ${indexed} bookings newly indexed for the erasure job.`]);
  },
};
