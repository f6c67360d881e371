import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eInvoiceJson, type EInvoicePayload } from '../../domain/invoicing/e-invoice.ts';
import { EInvoiceHeldError, EInvoiceRejectedError, EInvoiceUnavailableError } from '../../domain/ports/e-invoice-registry.ts';
import { authPayload, sealData, verifyIrpJws } from '../../infra/einvoice/irp-crypto.ts';
import { NicEInvoiceRegistry, type IrpCredential, type IrpSession, type IrpSessionStore } from '../../infra/einvoice/nic-e-invoice-registry.ts';
import { sekUnder, startFakeIrp, type FakeIrp, type FakeIrpUser } from '../support/fake-irp.ts';
import { intraStateInvoice } from '../support/invoice-documents.ts';

/**
 * The NIC adapter against the fake IRP over real HTTP, with the session store as a Map that
 * keeps the DynamoDB store's lease rule (the integration test runs the table's). Time is the
 * test's clock, shared by the adapter and the fake.
 */
class MapSessions implements IrpSessionStore {
  readonly rows = new Map<string, { session?: IrpSession; holder?: string; until?: number }>();
  async get(gstin: string) {
    return this.rows.get(gstin)?.session;
  }
  async lease(gstin: string, holder: string, now: number, until: number) {
    const row = this.rows.get(gstin) ?? {};
    if (row.until !== undefined && row.until >= now) return false;
    this.rows.set(gstin, { ...row, holder, until });
    return true;
  }
  async put(gstin: string, holder: string, session: IrpSession) {
    const row = this.rows.get(gstin);
    if (row?.holder === holder) this.rows.set(gstin, { session });
  }
  async release(gstin: string, holder: string) {
    const row = this.rows.get(gstin);
    if (row?.holder === holder) this.rows.set(gstin, { session: row.session });
  }
}

let nowMs = Date.parse('2026-11-02T06:30:00.000Z');
const clock = { now: () => new Date(nowMs) };
const doc = eInvoiceJson(intraStateInvoice);
const GSTIN = doc.SellerDtls.Gstin;
const user: FakeIrpUser = { gstin: GSTIN, clientId: 'AAICK21TXP1', clientSecret: 'client-secret', userName: 'api_kestrel', password: 'Pass@1234' };
/** Another registration's API user at the same portal. */
const other: FakeIrpUser = { gstin: '29AAGCB1286Q1Z4', clientId: 'AAICK21TXP2', clientSecret: 'other-secret', userName: 'api_other', password: 'Pass@5678' };
let fake: FakeIrp;
let credential: IrpCredential;
let sessions: MapSessions;
let registry: NicEInvoiceRegistry;
const numbered = (no: string): EInvoicePayload => ({ ...doc, DocDtls: { ...doc.DocDtls, No: no } });
const authCalls = () => fake.calls.filter((c) => c.path === '/eivital/v1.04/auth');

/** The portal's answer as a client reads it: `Status`, the error codes, the sign-in's token. */
interface RawAnswer {
  readonly Status: unknown;
  readonly Data?: { AuthToken?: string; Sek?: string } | string | null;
  readonly ErrorDetails: { ErrorCode: string; ErrorMessage: string }[] | null;
}
const codeOf = (a: RawAnswer) => a.ErrorDetails?.[0]?.ErrorCode;
/** A sign-in as NIC documents it, sent by hand so that a test can break any part of it. */
const signInRaw = (o: { path?: string; gstin?: string; as?: FakeIrpUser; clientId?: string; data?: string; appKey?: Buffer; force?: boolean } = {}) =>
  fetch(`${fake.url}${o.path ?? '/eivital/v1.04/auth'}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      client_id: o.clientId ?? (o.as ?? user).clientId,
      client_secret: (o.as ?? user).clientSecret,
      ...(o.gstin ? { Gstin: o.gstin } : {}),
    },
    body: JSON.stringify({
      Data:
        o.data ??
        authPayload(fake.encryptionPublicKeyPem, {
          UserName: (o.as ?? user).userName,
          Password: (o.as ?? user).password,
          AppKey: (o.appKey ?? Buffer.alloc(32, 7)).toString('base64'),
          ForceRefreshAccessToken: o.force ?? false,
        }),
    }),
  }).then((r) => r.json() as Promise<RawAnswer>);
const tokenOf = async (o: Parameters<typeof signInRaw>[0] = {}) =>
  ((await signInRaw({ gstin: (o.as ?? user).gstin, ...o })).Data as { AuthToken: string }).AuthToken;
/** A GET of the core or vital API under a token, as the adapter sends it. */
const getRaw = (path: string, token: string, as: FakeIrpUser = user) =>
  fetch(`${fake.url}${path}`, {
    headers: { client_id: as.clientId, client_secret: as.clientSecret, Gstin: as.gstin, user_name: as.userName, AuthToken: token },
  }).then(async (r) => ({ status: r.status, answer: r.status === 200 ? ((await r.json()) as RawAnswer) : undefined }));

beforeAll(async () => {
  fake = await startFakeIrp({
    clock,
    users: [user, other],
    taxpayers: [
      {
        Gstin: '27AAPFU0939F1ZV',
        TradeName: 'Acme',
        LegalName: 'Acme Travel Pvt Ltd',
        AddrBnm: 'Sea View',
        AddrBno: '12',
        AddrFlno: '2nd floor',
        AddrSt: 'Marine Drive',
        AddrLoc: 'Mumbai',
        StateCode: 27,
        AddrPncd: 400020,
        TxpType: 'REG',
        Status: 'ACT',
        BlkStatus: 'U',
      },
      {
        Gstin: '29AABCC1111C1Z9',
        TradeName: null,
        LegalName: 'Closed Travels',
        AddrBnm: null,
        AddrBno: null,
        AddrFlno: null,
        AddrSt: null,
        AddrLoc: null,
        StateCode: 29,
        AddrPncd: null,
        TxpType: 'REG',
        Status: 'CNL',
        BlkStatus: null,
      },
      {
        Gstin: '19AABCP5555P1Z3',
        TradeName: null,
        LegalName: 'Provisional Trips',
        AddrBnm: null,
        AddrBno: null,
        AddrFlno: null,
        AddrSt: null,
        AddrLoc: null,
        StateCode: 19,
        AddrPncd: null,
        TxpType: 'REG',
        Status: 'PRO',
        BlkStatus: null,
      },
      {
        Gstin: '33AABCB3333B1Z2',
        TradeName: null,
        LegalName: 'Blocked Holidays',
        AddrBnm: null,
        AddrBno: null,
        AddrFlno: null,
        AddrSt: null,
        AddrLoc: null,
        StateCode: 33,
        AddrPncd: null,
        TxpType: 'REG',
        Status: 'ACT',
        BlkStatus: 'B',
      },
    ],
  });
  credential = {
    baseUrl: fake.url,
    clientId: user.clientId,
    clientSecret: user.clientSecret,
    userName: user.userName,
    password: user.password,
    publicKeyPem: fake.encryptionPublicKeyPem,
    signingKeyPem: fake.signingPublicKeyPem,
  };
});
afterAll(() => fake.close());
beforeEach(() => {
  sessions = new MapSessions();
  registry = new NicEInvoiceRegistry({ [GSTIN]: credential }, sessions, clock, { sleep: () => new Promise((r) => setImmediate(r)) });
  fake.fault = undefined;
  fake.revokeTokens();
  fake.calls.length = 0;
});

describe('Class: NicEInvoiceRegistry', () => {
  it('signs in once, registers the INV-01 under the Sek, and answers the IRN, acknowledgement and the signed QR and invoice, verified', async () => {
    const r = await registry.register(numbered('NIC/0001'));
    expect(authCalls()).toHaveLength(1);
    expect(r.duplicate).toBe(false);
    expect(r.irn).toMatch(/^[0-9a-f]{64}$/);
    expect(r.ackNo).toMatch(/^1\d{14}$/);
    expect(r.ackDate).toBe('2026-11-02 12:00:00');
    expect(verifyIrpJws(fake.signingPublicKeyPem, r.signedQrCode)).toMatchObject({ Irn: r.irn, DocNo: 'NIC/0001', SellerGstin: GSTIN });
    expect(verifyIrpJws(fake.signingPublicKeyPem, r.signedInvoice!)).toMatchObject({ Irn: r.irn, AckNo: Number(r.ackNo) });
    await registry.register(numbered('NIC/0002'));
    expect(authCalls(), 'the session is reused').toHaveLength(1);
  });

  it('signs in at /eivital/v1.04/auth with the Gstin header; the fake refuses the v1.03 sign-in (1007), no Gstin header (1004) and another registration (1015)', async () => {
    await registry.register(numbered('NIC/0100'));
    expect(fake.calls[0]).toMatchObject({ path: '/eivital/v1.04/auth', gstin: GSTIN });
    const signIn = (path: string, gstin?: string) => signInRaw({ path, ...(gstin ? { gstin } : {}) });
    expect((await signIn('/eivital/v1.04/auth', GSTIN)).Status).toBe(1);
    expect((await signIn('/eivital/v1.03/auth', GSTIN)).ErrorDetails?.[0]?.ErrorCode).toBe('1007');
    expect((await signIn('/eivital/v1.04/auth')).ErrorDetails?.[0]?.ErrorCode).toBe('1004');
    expect((await signIn('/eivital/v1.04/auth', '27AAPFU0939F1ZV')).ErrorDetails?.[0]?.ErrorCode).toBe('1015');
  });

  it('registers to an ACT recipient even with BlkStatus B; a cancelled or provisional recipient is refused 3029 "GSTIN is not active", a rejection of the document', async () => {
    const to = (no: string, gstin: string): EInvoicePayload => ({ ...numbered(no), BuyerDtls: { ...doc.BuyerDtls, Gstin: gstin } });
    await expect(registry.register(to('NIC/0200', '33AABCB3333B1Z2'))).resolves.toMatchObject({ duplicate: false });
    await expect(registry.register(to('NIC/0201', '29AABCC1111C1Z9'))).rejects.toEqual(new EInvoiceRejectedError('3029', 'GSTIN is not active'));
    await expect(registry.register(to('NIC/0202', '19AABCP5555P1Z3'))).rejects.toEqual(new EInvoiceRejectedError('3029', 'GSTIN is not active'));
  });

  it('answers a document whose answer was lost as the duplicate (2150) with the same registration, fetched by document', async () => {
    fake.loseAnswers(1);
    await expect(registry.register(numbered('NIC/0003'))).rejects.toBeInstanceOf(EInvoiceUnavailableError);
    const again = await registry.register(numbered('NIC/0003'));
    expect(again.duplicate).toBe(true);
    expect(fake.registrationOf(again.irn)).toMatchObject({ AckNo: Number(again.ackNo), SignedQRCode: again.signedQrCode });
    expect(fake.calls.map((c) => c.path)).toContain(`/eicore/v1.03/Invoice/irn/${again.irn}`);
  });

  it("takes the IRN of 2150's InfoDtls, fetches the signed invoice and holds it for reconciliation, storing nothing as ours, when its recipient, number, date or total differ from ours", async () => {
    const first = await registry.register(numbered('NIC/0300'));
    const other = { ...numbered('NIC/0300'), ValDtls: { ...doc.ValDtls, TotInvVal: doc.ValDtls.TotInvVal + 0.5 } };
    const refusal = await registry.register(other).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(EInvoiceHeldError);
    expect(refusal).toMatchObject({
      kind: 'RECONCILE',
      held: { irn: first.irn },
      reason: expect.stringMatching(
        new RegExp(
          `Duplicate IRN ${first.irn}, but .*total ${doc.ValDtls.TotInvVal} at the portal, ${doc.ValDtls.TotInvVal + 0.5} sent.*nothing stored as ours`,
        ),
      ),
    });
    expect((refusal as EInvoiceHeldError).held.signedQrCode).toBeUndefined();
    // The operator's record of that IRN is refused the same way: it is another document.
    const r = fake.registrationOf(first.irn)!;
    await expect(registry.accept(other, r)).rejects.toMatchObject({ kind: 'RECONCILE' });
    await expect(registry.register(numbered('NIC/0300'))).resolves.toMatchObject({ irn: first.irn, duplicate: true });
  });

  it("holds a duplicate the portal no longer serves (2283, more than 2 days) for reconciliation with the InfoDtls IRN and acknowledgement; the portal's record, given later, is accepted without sending anything", async () => {
    fake.loseAnswers(1);
    await expect(registry.register(numbered('NIC/0400'))).rejects.toBeInstanceOf(EInvoiceUnavailableError);
    fake.age(2 * 24 * 3600_000 + 60_000);
    const held = await registry.register(numbered('NIC/0400')).catch((e: unknown) => e);
    expect(held).toBeInstanceOf(EInvoiceHeldError);
    const r = [...fake.calls].reverse().find((c) => c.path.startsWith('/eicore/v1.03/Invoice/irn/'))!;
    const irn = r.path.slice('/eicore/v1.03/Invoice/irn/'.length);
    const record = fake.registrationOf(irn)!;
    expect(held).toMatchObject({
      kind: 'RECONCILE',
      held: { irn, ackNo: String(record.AckNo), ackDate: record.AckDt },
      reason: expect.stringContaining('2283 IRN details cannot be provided as it is generated more than 2 days ago'),
    });
    expect(fake.calls.map((c) => c.path)).toEqual(
      expect.arrayContaining(['/eicore/v1.03/Invoice', `/eicore/v1.03/Invoice/irn/${irn}`, '/eicore/v1.03/Invoice/irnbydocdetails']),
    );
    fake.calls.length = 0;
    await expect(registry.accept(numbered('NIC/0400'), record)).resolves.toMatchObject({ irn, ackNo: String(record.AckNo), signedQrCode: record.SignedQRCode });
    expect(fake.calls).toEqual([]);
  });

  it("turns a validation error into EInvoiceRejectedError with the portal's code and message; down, throttled or unreachable into EInvoiceUnavailableError", async () => {
    fake.refuse('NIC/0004', '2189', 'Invalid total invoice value');
    await expect(registry.register(numbered('NIC/0004'))).rejects.toEqual(new EInvoiceRejectedError('2189', 'Invalid total invoice value'));
    fake.fault = 'down';
    await expect(registry.register(numbered('NIC/0005'))).rejects.toThrow(/HTTP 503/);
    fake.fault = 'throttled';
    await expect(registry.register(numbered('NIC/0005'))).rejects.toThrow(/throttled/);
    const nowhere = new NicEInvoiceRegistry({ [GSTIN]: { ...credential, baseUrl: 'http://127.0.0.1:9' } }, new MapSessions(), clock);
    await expect(nowhere.register(numbered('NIC/0005'))).rejects.toBeInstanceOf(EInvoiceUnavailableError);
  });

  it('signs in again exactly once when the portal refuses the token mid-run (1005), and the call goes through', async () => {
    await registry.register(numbered('NIC/0006'));
    const before = fake.tokensIssued();
    fake.revokeTokens();
    const r = await registry.register(numbered('NIC/0007'));
    expect(r.duplicate).toBe(false);
    expect(fake.tokensIssued() - before).toBe(1);
    expect(authCalls()).toHaveLength(2);
  });

  it('refreshes with ForceRefreshAccessToken only in the last 10 minutes of the token, once', async () => {
    await registry.register(numbered('NIC/0008'));
    const start = nowMs;
    try {
      nowMs = start + 349 * 60_000;
      await registry.register(numbered('NIC/0009'));
      expect(authCalls()).toHaveLength(1);
      nowMs = start + 352 * 60_000;
      const before = fake.tokensIssued();
      await Promise.all([registry.register(numbered('NIC/0010')), registry.register(numbered('NIC/0011')), registry.register(numbered('NIC/0012'))]);
      expect(authCalls()).toHaveLength(2);
      expect(authCalls()[1]!.forceRefresh).toBe(true);
      expect(fake.tokensIssued() - before).toBe(1);
    } finally {
      nowMs = start;
    }
  });

  it('shares one sign-in among 12 concurrent registrations (one lease holder, the others wait for its session)', async () => {
    const out = await Promise.all(Array.from({ length: 12 }, (_, i) => registry.register(numbered(`NIC/1${String(i).padStart(3, '0')}`))));
    expect(new Set(out.map((r) => r.irn)).size).toBe(12);
    expect(authCalls()).toHaveLength(1);
  });

  it("stores nothing whose signature does not verify under the portal's published key, but holds its IRN and acknowledgement (SIGNATURE), and takes it without sending it again once the new key is stored beside the old", async () => {
    const oldKey = credential.signingKeyPem;
    const newKey = fake.rotateSigningKey();
    const held = await registry.register(numbered('NIC/0013')).catch((e: unknown) => e);
    expect(held).toBeInstanceOf(EInvoiceHeldError);
    const h = (held as EInvoiceHeldError).held;
    expect(held).toMatchObject({ kind: 'SIGNATURE', reason: expect.stringMatching(/does not hold/) });
    expect(fake.registrationOf(h.irn)).toMatchObject({
      AckNo: Number(h.ackNo),
      AckDt: h.ackDate,
      SignedQRCode: h.signedQrCode,
      SignedInvoice: h.signedInvoice,
    });
    const details = { Irn: h.irn, AckNo: h.ackNo!, AckDt: h.ackDate!, SignedQRCode: h.signedQrCode!, SignedInvoice: h.signedInvoice! };
    await expect(registry.accept(numbered('NIC/0013'), details)).rejects.toMatchObject({ kind: 'SIGNATURE' });
    // The stage secret's rotation: the new key and the old, one PEM after the other.
    credential = { ...credential, signingKeyPem: `${newKey}${oldKey}` };
    const rotated = new NicEInvoiceRegistry({ [GSTIN]: credential }, sessions, clock);
    fake.calls.length = 0;
    await expect(rotated.accept(numbered('NIC/0013'), details)).resolves.toMatchObject({ irn: h.irn, signedQrCode: h.signedQrCode });
    expect(fake.calls).toEqual([]);
    // What the portal signs from now on, under its new key, verifies too.
    await expect(rotated.register(numbered('NIC/0014'))).resolves.toMatchObject({ duplicate: false });
  });

  it('refuses a sign-in with wrong credentials as unavailable with the portal words, never as a rejection of the document', async () => {
    const wrong = new NicEInvoiceRegistry({ [GSTIN]: { ...credential, password: 'nope' } }, new MapSessions(), clock);
    await expect(wrong.register(numbered('NIC/0014'))).rejects.toThrow(/1008 Invalid login credentials/);
  });

  it('cancels within 24 hours (CnlRsn), then the portal answers 9999; after 24 hours 2270', async () => {
    const a = await registry.register(numbered('NIC/0015'));
    await expect(registry.cancel({ supplierGstin: GSTIN, irn: a.irn, reason: '2', remark: 'Data entry mistake' })).resolves.toEqual({
      irn: a.irn,
      cancelDate: '2026-11-02 12:00:00',
    });
    await expect(registry.cancel({ supplierGstin: GSTIN, irn: a.irn, reason: '2', remark: 'again' })).rejects.toEqual(
      new EInvoiceRejectedError('9999', 'Invoice is not active'),
    );
    const b = await registry.register(numbered('NIC/0016'));
    const start = nowMs;
    nowMs = start + 24 * 3600_000 + 60_000;
    try {
      await expect(registry.cancel({ supplierGstin: GSTIN, irn: b.irn, reason: '3', remark: 'late' })).rejects.toMatchObject({ code: '2270' });
    } finally {
      nowMs = start;
    }
  });

  it.each([
    ['a document number starting with 0', (d: EInvoicePayload) => ({ ...d, DocDtls: { ...d.DocDtls, No: '07/26-27/000001' } }), '2140'],
    ['a lower-case document number', (d: EInvoicePayload) => ({ ...d, DocDtls: { ...d.DocDtls, No: 'i30/26-27/000001' } }), '2140'],
    ['a buyer name with a double quote', (d: EInvoicePayload) => ({ ...d, BuyerDtls: { ...d.BuyerDtls, LglNm: 'Agents "North"' } }), '2140'],
    ['EcmGstin null', (d: EInvoicePayload) => ({ ...d, TranDtls: { ...d.TranDtls, EcmGstin: null } }) as unknown as EInvoicePayload, '2140'],
    ['a document dated in the future', (d: EInvoicePayload) => ({ ...d, DocDtls: { ...d.DocDtls, Dt: '03/11/2026' } }), '2163'],
    ['an intra-state document charging IGST', (d: EInvoicePayload) => ({ ...d, ItemList: d.ItemList.map((i) => ({ ...i, IgstAmt: 1 })) }), '2172'],
    ['an inter-state document charging CGST and SGST', (d: EInvoicePayload) => ({ ...d, BuyerDtls: { ...d.BuyerDtls, Pos: '29' } }), '2173'],
    ['an item whose AssAmt is not TotAmt − Discount', (d: EInvoicePayload) => ({ ...d, ItemList: d.ItemList.map((i) => ({ ...i, Discount: 10 })) }), '2193'],
    [
      'an item whose TotItemVal is off its taxes',
      (d: EInvoicePayload) => ({ ...d, ItemList: d.ItemList.map((i) => ({ ...i, TotItemVal: i.TotItemVal + 2 })) }),
      '2194',
    ],
    ['items whose assessable values do not add up', (d: EInvoicePayload) => ({ ...d, ValDtls: { ...d.ValDtls, AssVal: d.ValDtls.AssVal + 1 } }), '2182'],
    ['a total more than a rupee off its items', (d: EInvoicePayload) => ({ ...d, ValDtls: { ...d.ValDtls, TotInvVal: d.ValDtls.TotInvVal + 1.01 } }), '2189'],
  ] as const)('the fake portal refuses over HTTP %s with its code, a rejection of the document', async (_name, change, code) => {
    await expect(registry.register(change(numbered('NIC/0600')))).rejects.toMatchObject({ name: 'EInvoiceRejectedError', code });
  });

  it('answers 2148 "Requested IRN data is not available" for an IRN the portal does not hold (Cancel IRN)', async () => {
    await expect(registry.cancel({ supplierGstin: GSTIN, irn: 'f'.repeat(64), reason: '2', remark: 'unknown' })).rejects.toMatchObject({
      code: '2148',
      irpMessage: 'Requested IRN data is not available',
    });
  });

  it('refuses an item whose SAC is not in the HSN/SAC master (2176 "Invalid HSN code(s)-{0}"), a rejection of the document', async () => {
    const withSac = (no: string, sac: string): EInvoicePayload => ({ ...numbered(no), ItemList: doc.ItemList.map((i) => ({ ...i, HsnCd: sac })) });
    await expect(registry.register(withSac('NIC/0500', '998552'))).resolves.toMatchObject({ duplicate: false });
    await expect(registry.register(withSac('NIC/0501', '996399'))).rejects.toEqual(new EInvoiceRejectedError('2176', 'Invalid HSN code(s)-996399'));
  });

  it('refuses a document dated more than 30 days before the day of reporting (2305) only for a registration with AATO of ₹10 crore or more; the 30th day is still reported', async () => {
    const windowed = await startFakeIrp({ clock, users: [{ ...user, reportingWindow: true }] });
    try {
      const key = { ...credential, baseUrl: windowed.url, publicKeyPem: windowed.encryptionPublicKeyPem, signingKeyPem: windowed.signingPublicKeyPem };
      const subject = new NicEInvoiceRegistry({ [GSTIN]: key }, new MapSessions(), clock);
      const dated = (no: string, dt: string): EInvoicePayload => ({ ...numbered(no), DocDtls: { ...doc.DocDtls, No: no, Dt: dt } });
      // Today is 2 November 2026 in India: 4 October is the 30th day counting the document's own, 3 October is past it.
      await expect(subject.register(dated('NIC/0510', '04/10/2026'))).resolves.toMatchObject({ duplicate: false });
      await expect(subject.register(dated('NIC/0511', '03/10/2026'))).rejects.toEqual(
        new EInvoiceRejectedError('2305', 'IRN cannot be generated with document date prior to 30 days from today'),
      );
      await expect(registry.register(dated('NIC/0511', '03/10/2026'))).resolves.toMatchObject({ duplicate: false });
    } finally {
      await windowed.close();
    }
  });

  it("reads Get GSTIN details: legal name and address mapped; cancelled as CNL; unknown as the portal's 3001", async () => {
    await expect(registry.taxpayer('27AAPFU0939F1ZV')).resolves.toEqual({
      gstin: '27AAPFU0939F1ZV',
      legalName: 'Acme Travel Pvt Ltd',
      tradeName: 'Acme',
      address: { line1: '12, 2nd floor, Sea View', line2: 'Marine Drive', city: 'Mumbai', stateCode: '27', postalCode: '400020' },
      status: 'ACT',
      blocked: false,
    });
    await expect(registry.taxpayer('29AABCC1111C1Z9')).resolves.toMatchObject({ status: 'CNL', address: null });
    await expect(registry.taxpayer('24AAACU4444U1Z1')).rejects.toEqual(new EInvoiceRejectedError('3001', 'Requested data is not available'));
  });
  it('refuses a sign-in from an unknown client (1010), with a Data it cannot decrypt under its key (1013) or an AppKey not of 32 bytes (1016)', async () => {
    expect(codeOf(await signInRaw({ gstin: GSTIN }))).toBeUndefined();
    expect(codeOf(await signInRaw({ gstin: GSTIN, clientId: 'NOT-A-CLIENT' }))).toBe('1010');
    expect(codeOf(await signInRaw({ gstin: GSTIN, data: Buffer.from('not under the portal key').toString('base64') }))).toBe('1013');
    expect(codeOf(await signInRaw({ gstin: GSTIN, appKey: Buffer.alloc(16, 7) }))).toBe('1016');
  });

  it('answers the same token for its 360 minutes and a new one on ForceRefreshAccessToken only in its last 10; a call under a token past its 360 minutes is 1005 "Invalid Token"', async () => {
    const master = '/eivital/v1.03/Master/gstin/27AAPFU0939F1ZV';
    const start = nowMs;
    try {
      const first = await tokenOf();
      expect((await getRaw(master, first)).answer?.Status).toBe('1');
      expect(await tokenOf(), 'asked again: the same token').toBe(first);
      nowMs = start + 300 * 60_000;
      expect(await tokenOf({ force: true }), 'forced 60 minutes before it expires: the same token').toBe(first);
      nowMs = start + 351 * 60_000;
      const second = await tokenOf({ force: true });
      expect(second, 'forced 9 minutes before it expires: a new token').not.toBe(first);
      expect((await getRaw(master, second)).answer?.Status).toBe('1');
      nowMs = start + (351 + 360) * 60_000 + 1_000;
      expect(codeOf((await getRaw(master, second)).answer!)).toBe('1005');
    } finally {
      nowMs = start;
    }
  });

  it("answers 2148 on Get IRN details, by IRN and by document, for a document it does not hold or that is another registration's; Cancel IRN of another registration's IRN is 2143, a CnlRsn outside 1–4 is 2140", async () => {
    const mine = await registry.register(numbered('NIC/0700'));
    const byIrn = (irn: string) => `/eicore/v1.03/Invoice/irn/${irn}`;
    const byDoc = (no: string) => `/eicore/v1.03/Invoice/irnbydocdetails?${new URLSearchParams({ doctype: 'INV', docnum: no, docdate: doc.DocDtls.Dt })}`;
    const ours = await tokenOf();
    expect((await getRaw(byIrn(mine.irn), ours)).answer?.Status).toBe('1');
    expect((await getRaw(byDoc('NIC/0700'), ours)).answer?.Status).toBe('1');
    expect(codeOf((await getRaw(byIrn('f'.repeat(64)), ours)).answer!)).toBe('2148');
    expect(codeOf((await getRaw(byDoc('NIC/0799'), ours)).answer!)).toBe('2148');
    const theirs = await tokenOf({ as: other });
    expect(codeOf((await getRaw(byIrn(mine.irn), theirs, other)).answer!)).toBe('2148');
    expect(codeOf((await getRaw(byDoc('NIC/0700'), theirs, other)).answer!)).toBe('2148');
    const otherKey = { ...credential, clientId: other.clientId, clientSecret: other.clientSecret, userName: other.userName, password: other.password };
    const otherRegistry = new NicEInvoiceRegistry({ [other.gstin]: otherKey }, new MapSessions(), clock);
    await expect(otherRegistry.cancel({ supplierGstin: other.gstin, irn: mine.irn, reason: '2', remark: 'not ours' })).rejects.toEqual(
      new EInvoiceRejectedError('2143', 'Invoice does not belongs to the user GSTIN'),
    );
    await expect(registry.cancel({ supplierGstin: GSTIN, irn: mine.irn, reason: '5' as never, remark: 'no such reason' })).rejects.toMatchObject({
      code: '2140',
    });
    // Generate IRN of a document whose supplier is not the signed-in registration: 2143 too.
    const signedIn = await signInRaw({ gstin: GSTIN });
    const sek = sekUnder(Buffer.alloc(32, 7), (signedIn.Data as { Sek: string }).Sek);
    const foreign = { ...numbered('NIC/0701'), SellerDtls: { ...doc.SellerDtls, Gstin: other.gstin } };
    const generated = await fetch(`${fake.url}/eicore/v1.03/Invoice`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        client_id: user.clientId,
        client_secret: user.clientSecret,
        Gstin: GSTIN,
        user_name: user.userName,
        AuthToken: ours,
      },
      body: JSON.stringify({ Data: sealData(sek, foreign) }),
    }).then((r) => r.json() as Promise<RawAnswer>);
    expect(generated.ErrorDetails?.[0]).toEqual({ ErrorCode: '2143', ErrorMessage: 'Invoice does not belongs to the user GSTIN' });
  });

  it('serves each call at its documented path and version only: the adapter registers, cancels and reads GSTIN details at v1.03 after signing in at v1.04; the same calls at v1.04 are not found', async () => {
    const a = await registry.register(numbered('NIC/0710'));
    await registry.cancel({ supplierGstin: GSTIN, irn: a.irn, reason: '1', remark: 'Duplicate' });
    await registry.taxpayer('27AAPFU0939F1ZV');
    expect(fake.calls.map((c) => c.path)).toEqual([
      '/eivital/v1.04/auth',
      '/eicore/v1.03/Invoice',
      '/eicore/v1.03/Invoice/Cancel',
      '/eivital/v1.03/Master/gstin/27AAPFU0939F1ZV',
    ]);
    const token = await tokenOf();
    expect((await getRaw('/eivital/v1.04/Master/gstin/27AAPFU0939F1ZV', token)).status).toBe(404);
    expect((await getRaw(`/eicore/v1.04/Invoice/irn/${a.irn}`, token)).status).toBe(404);
  });
});
