import { describe, expect, it } from 'vitest';
import { bookingCode } from '../../domain/bookings/place-booking.ts';
import { randomUUID } from 'node:crypto';
import { operatorOrigin } from '../../domain/audit/audit-event.ts';
import { listOperatorAuditEvents, type OperatorAuditQuery } from '../../domain/audit/list-operator-audit-events.ts';
import { runAdminTool } from '../support/admin-tool.ts';
import { findBookingForOperator } from '../../domain/bookings/find-booking.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { bookingFixture, seedBooking } from '../support/booking-seed.ts';
import { newAgentGroup, testServices } from '../support/stack.ts';

/** `audit list` (listOperatorAuditEvents): a booking's chain by the ids people see, narrowed by actor and window. */
describe('audit list: booking targets', () => {
  it("finds a booking's chain by its booking id, code and external id, keeps other targets as given, and narrows by actor and window", async () => {
    // prepare: a booking with two events on its chain, by two operators a minute apart
    const g = await newAgentGroup();
    const fixture = bookingFixture(g);
    const b = await seedBooking({ ...fixture, code: bookingCode(fixture.bookingRef) });
    const svc = testServices();
    const at = ['2026-11-20T10:00:00.000Z', '2026-11-20T10:01:00.000Z'];
    for (const [i, actor] of ['alice', 'bob'].entries())
      await svc.auditTrail.transact([], {
        id: randomUUID(),
        at: at[i]!,
        origin: operatorOrigin(actor, randomUUID()),
        action: 'booking.noted',
        target: `booking:${b.bookingRef}`,
        account: g.agentGroupId,
        before: null,
        after: { step: i },
      });
    const list = (q: OperatorAuditQuery) => listOperatorAuditEvents(svc, q).then((events) => events.map((e) => e.actor));

    // act + assess
    for (const id of [b.bookingId!, b.code, b.code.toLowerCase(), b.bookingRef]) expect(await list({ target: `booking:${id}` })).toEqual(['alice', 'bob']);
    expect(await list({ target: `booking:${b.externalBookingId}`, agentGroupId: g.agentGroupId })).toEqual(['alice', 'bob']);
    expect(await list({ target: `booking:${b.bookingId}`, actor: 'bob' })).toEqual(['bob']);
    expect(await list({ target: `booking:${b.bookingId}`, from: '2026-11-20', to: '2026-11-20T10:00:30Z' })).toEqual(['alice']);
    expect(await list({ target: `booking:${b.bookingId}`, to: '2026-11-19' })).toEqual([]);
    expect((await listOperatorAuditEvents(svc, { target: `group:${g.agentGroupId}` })).map((e) => e.action)).toContain('group.created');
    await expect(listOperatorAuditEvents(svc, { from: 'last week' })).rejects.toMatchObject({ param: 'from' });
  });

  it('an id that is no booking exits 1 naming it, and an unknown group exits 1 too', async () => {
    const g = await newAgentGroup();
    const missing = await runAdminTool(['audit', 'list', '--target', 'booking:SIM-nothing-here', '--group', g.agentGroupId]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("No such booking 'SIM-nothing-here'");
    const noGroup = await runAdminTool(['audit', 'list', '--target', 'booking:SIM-nothing-here', '--group', 'no-such-group-x']);
    expect(noGroup.code).toBe(1);
    expect(noGroup.stderr).toContain('no-such-group-x');
    const badDate = await runAdminTool(['audit', 'list', '--from', 'yesterday']);
    expect(badDate.code).toBe(2);
    expect(badDate.stderr).toContain('--from must be');
  });
});

/** Money reads in rupees wherever the tool prints for people; --json keeps the trail's paise, as recorded and hashed. */
describe('audit list and payments list: money in rupees', () => {
  it("prints a credit-limit change and a bank transfer as ₹ with Indian grouping, and the event's paise under --json", async () => {
    const g = await newAgentGroup();
    const updated = await runAdminTool(['groups', 'update', g.agentGroupId, '--credit-limit', '7,50,000', '--as', 'olga']);
    expect(updated.code, updated.stderr).toBe(0);
    const paid = await runAdminTool([
      'payments',
      'record',
      '--group',
      g.agentGroupId,
      '--amount',
      '1,500.50',
      '--reference',
      `UTR${Date.now()}`,
      '--as',
      'olga',
    ]);
    expect(paid.code, paid.stderr).toBe(0);

    const listed = await runAdminTool(['audit', 'list', '--target', `group:${g.agentGroupId}`]);
    const machine = JSON.parse((await runAdminTool(['audit', 'list', '--target', `group:${g.agentGroupId}`, '--json'])).stdout) as {
      events: { action: string; after: { creditLimit?: number } | null }[];
    };
    const payments = await runAdminTool(['payments', 'list', '--group', g.agentGroupId]);

    expect(listed.stdout).toContain('creditLimit: ₹50,000.00 → ₹7,50,000.00');
    expect(listed.stdout).not.toMatch(/75000000/);
    expect(machine.events.find((e) => e.action === 'group.updated')?.after?.creditLimit).toBe(75_000_000);
    expect(paid.stdout).toContain('Recorded ₹1,500.50');
    expect(payments.stdout).toContain('₹1,500.50');
  });
});

/** One resolver for every command that takes a booking: audit list --target booking:<id> and guests erase --booking. */
describe('Function: findBookingForOperator', () => {
  it('finds a booking by each id people see, the external id only within its group, and another group never', async () => {
    const [g, other] = [await newAgentGroup(), await newAgentGroup()];
    const fixture = bookingFixture(g);
    const b = await seedBooking({ ...fixture, code: bookingCode(fixture.bookingRef) });
    const svc = testServices();

    for (const id of [b.bookingId!, b.code, b.code.toLowerCase(), b.bookingRef]) expect((await findBookingForOperator(svc, id)).bookingRef).toBe(b.bookingRef);
    expect((await findBookingForOperator(svc, b.externalBookingId, g.agentGroupId)).bookingRef).toBe(b.bookingRef);
    for (const id of [b.bookingId!, b.code, b.bookingRef]) expect((await findBookingForOperator(svc, id, g.agentGroupId)).bookingRef).toBe(b.bookingRef);

    await expect(findBookingForOperator(svc, b.externalBookingId)).rejects.toThrow(/No such booking .*with --group, the partner's externalBookingId/);
    await expect(findBookingForOperator(svc, b.bookingId!, other.agentGroupId)).rejects.toThrow(NotFoundError);
    await expect(findBookingForOperator(svc, b.externalBookingId, other.agentGroupId)).rejects.toThrow(`in agent group '${other.agentGroupId}'`);
  });

  it('guests erase --booking takes the same ids: the external id with --group reaches the booking, an unknown id exits 1 naming it', async () => {
    const g = await newAgentGroup();
    const fixture = bookingFixture(g);
    const b = await seedBooking({ ...fixture, code: bookingCode(fixture.bookingRef) });

    const byExternal = await runAdminTool(['guests', 'erase', '--booking', b.externalBookingId, '--group', g.agentGroupId, '--as', 'dpo@test', '--json']);
    const unknown = await runAdminTool(['guests', 'erase', '--booking', 'PB-000000000000', '--group', g.agentGroupId, '--as', 'dpo@test']);

    // Found: erased, or refused because the stay has not ended; either way about this booking, not "no such booking".
    expect(byExternal.stderr).not.toContain('No such booking');
    expect(byExternal.code === 0 ? JSON.parse(byExternal.stdout).results[0].bookingRef : byExternal.stderr).toMatch(
      byExternal.code === 0 ? b.bookingRef : /has not ended/,
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`No such booking 'PB-000000000000' in agent group '${g.agentGroupId}'`);
  });
});
