import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConflictError, ValidationError } from '../../domain/errors.ts';
import { billToOffer, checkRecipientGstin, checkWorldGstins } from '../../domain/invoicing/recipient-gstin.ts';
import { EInvoiceUnavailableError } from '../../domain/ports/e-invoice-registry.ts';
import { WorldValidationError } from '../../domain/world/world-validation-error.ts';
import { SandboxEInvoiceRegistry, type SandboxIrpMemory } from '../../infra/einvoice/sandbox-e-invoice-registry.ts';

/** Get GSTIN details answered by the sandbox IRP's own list (it needs no memory for that). */
const sandbox = new SandboxEInvoiceRegistry(randomBytes(32), {} as SandboxIrpMemory, { now: () => new Date() });

describe('Function: checkRecipientGstin', () => {
  it("passes an active GSTIN (blocked for e-way bills or not) and refuses unknown, cancelled, inactive and provisional ones with the IRP's words, naming the parameter", async () => {
    await expect(checkRecipientGstin(sandbox, '27AAPFU0939F1ZV')).resolves.toMatchObject({ legalName: 'Test Agents Pvt Ltd' });
    await expect(checkRecipientGstin(sandbox, '33AABCB3333B1Z2')).resolves.toMatchObject({ status: 'ACT', blocked: true });
    await expect(checkRecipientGstin(sandbox, '24AAACU4444U1Z1')).rejects.toThrow(
      new ValidationError('gstin', 'The IRP does not know GSTIN 24AAACU4444U1Z1 (3001): Requested data is not available.'),
    );
    await expect(checkRecipientGstin(sandbox, '29AABCC1111C1Z9')).rejects.toThrow(/GSTIN is not active: .* as cancelled \(Status CNL\)/);
    await expect(checkRecipientGstin(sandbox, '07AABCI2222I1Z5')).rejects.toThrow(/GSTIN is not active: .* as inactive \(Status INA\)/);
    await expect(checkRecipientGstin(sandbox, '19AABCP5555P1Z3', 'tenants.agentGroups[0].gstin')).rejects.toMatchObject({
      param: 'tenants.agentGroups[0].gstin',
      message: expect.stringMatching(/GSTIN is not active: .* as provisional \(Status PRO\)/),
    });
  });

  it('refuses (changes nothing) when the IRP cannot answer, instead of letting the GSTIN through unchecked', async () => {
    const down = { taxpayer: () => Promise.reject(new EInvoiceUnavailableError('HTTP 503')) };
    await expect(checkRecipientGstin(down, '27AAPFU0939F1ZV')).rejects.toBeInstanceOf(ConflictError);
  });
});

describe('Function: billToOffer', () => {
  it("offers the IRP's legal name and address only when they differ from the group's", async () => {
    const t = await sandbox.taxpayer('27AAPFU0939F1ZV');
    const same = {
      legalName: 'Test Agents Pvt Ltd',
      address: { line1: '1 Test Road', city: 'Mumbai', state: 'Maharashtra', postalCode: '400001', country: 'IN' },
    };
    expect(billToOffer(t, same)).toBeUndefined();
    expect(billToOffer(t, { ...same, legalName: 'Test Agents' })).toEqual({ legalName: 'Test Agents Pvt Ltd', address: same.address });
    expect(billToOffer(await sandbox.taxpayer('06AAACR5055K1Z7'), same)).toBeUndefined();
  });
});

describe('Function: checkWorldGstins', () => {
  it('lists every refused group GSTIN by its JSON path, and lets a file without problems through', async () => {
    const doc = (gstins: (string | null)[]) => ({ tenants: { agentGroups: gstins.map((gstin) => ({ gstin })) } });
    await expect(checkWorldGstins(sandbox, doc(['27AAPFU0939F1ZV', null, 'bad']))).resolves.toBeUndefined();
    const err = await checkWorldGstins(sandbox, doc(['27AAPFU0939F1ZV', '29AABCC1111C1Z9', '24AAACU4444U1Z1'])).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorldValidationError);
    expect((err as WorldValidationError).issues.map((i) => i.path)).toEqual(['tenants.agentGroups[1].gstin', 'tenants.agentGroups[2].gstin']);
  });
});
