import { describe, expect, it } from 'vitest';
import { bookingCode } from '../../domain/bookings/place-booking.ts';
import { auditTargetOf } from '../../bin/admin/audit-commands.ts';
import type { AdminContext } from '../../bin/admin/command.ts';
import { runAdminTool } from '../support/admin-tool.ts';
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
