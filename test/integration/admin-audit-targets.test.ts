import { describe, expect, it } from 'vitest';
import { bookingCode } from '../../domain/bookings/place-booking.ts';
import { auditTargetOf } from '../../bin/admin/audit-commands.ts';
import type { AdminContext } from '../../bin/admin/command.ts';
import { runAdminTool } from '../support/admin-tool.ts';
import { findBookingForOperator } from '../../domain/bookings/find-booking.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { bookingFixture, seedBooking } from '../support/booking-seed.ts';
import { newAgentGroup, testServices } from '../support/stack.ts';

const ctx = { services: () => testServices() } as unknown as AdminContext;

/** `audit list --target booking:<id>` takes the ids people see, and says when an id is none of them. */
describe('audit list: booking targets', () => {
  it('resolves the booking id (SIM-…), the booking code (PB-…) and the internal ref to the chain of the booking', async () => {
    const g = await newAgentGroup();
    const fixture = bookingFixture(g);
    const b = await seedBooking({ ...fixture, code: bookingCode(fixture.bookingRef) });
    const chain = `booking:${b.bookingRef}`;
    expect(await auditTargetOf(`booking:${b.bookingId}`, undefined, ctx)).toBe(chain);
    expect(await auditTargetOf(`booking:${b.code}`, undefined, ctx)).toBe(chain);
    expect(await auditTargetOf(`booking:${b.code.toLowerCase()}`, g.agentGroupId, ctx)).toBe(chain);
    expect(await auditTargetOf(`booking:${b.externalBookingId}`, g.agentGroupId, ctx)).toBe(chain);
    expect(await auditTargetOf(chain, g.agentGroupId, ctx)).toBe(chain);
    expect(await auditTargetOf(`group:${g.agentGroupId}`, undefined, ctx)).toBe(`group:${g.agentGroupId}`);
  });

  it('an id that is no booking exits 1 naming it, and an unknown group exits 1 too', async () => {
    const g = await newAgentGroup();
    const missing = await runAdminTool(['audit', 'list', '--target', 'booking:SIM-nothing-here', '--group', g.agentGroupId]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("No such booking 'SIM-nothing-here'");
    const noGroup = await runAdminTool(['audit', 'list', '--target', 'booking:SIM-nothing-here', '--group', 'no-such-group-x']);
    expect(noGroup.code).toBe(1);
    expect(noGroup.stderr).toContain('no-such-group-x');
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
