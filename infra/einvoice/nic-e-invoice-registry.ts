import { randomBytes, randomUUID } from 'node:crypto';
import type { EInvoicePayload } from '../../domain/invoicing/e-invoice.ts';
import type { Clock } from '../../domain/ports/clock.ts';
import {
  EInvoiceHeldError,
  EInvoiceRejectedError,
  EInvoiceUnavailableError,
  type EInvoiceCancellation,
  type EInvoiceCancelled,
  type EInvoiceDetails,
  type EInvoiceRegistered,
  type EInvoiceRegistry,
  type Taxpayer,
} from '../../domain/ports/e-invoice-registry.ts';
import { aesEcbDecrypt, authPayload, openData, sealData, verifyIrpJws } from './irp-crypto.ts';

/** What the portal issued one registration (its API user) at sign-in, shared by every process of a stage. */
export interface IrpSession {
  readonly authToken: string;
  readonly sek: Buffer;
  /** TokenExpiry as epoch milliseconds. */
  readonly expiresAt: number;
}

/**
 * The sessions of a stage, one per registration GSTIN, with a lease so that one process at a
 * time signs in (infra/dynamo/dynamo-irp-sessions.ts keeps them sealed in the table).
 */
export interface IrpSessionStore {
  get(gstin: string): Promise<IrpSession | undefined>;
  /** Takes the sign-in lease until `until` unless another holder's lease is still live at `now`; whether it was taken. */
  lease(gstin: string, holder: string, now: number, until: number, seenExpiresAt?: number): Promise<boolean>;
  /** Stores a fresh session and frees the lease, if `holder` still holds it. */
  put(gstin: string, holder: string, session: IrpSession): Promise<void>;
  release(gstin: string, holder: string): Promise<void>;
}

/** One registration's API user on the portal (the stage secret's `irpCredentials`, keyed by GSTIN). */
export interface IrpCredential {
  /** e.g. https://einv-apisandbox.nic.in (sandbox) or the production URL the portal gives on whitelisting. */
  readonly baseUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly userName: string;
  readonly password: string;
  /** The portal's public key that encrypts the auth payload (PEM). */
  readonly publicKeyPem: string;
  /**
   * The portal's published key that verifies SignedInvoice and SignedQRCode (PEM); a different
   * key. During a rotation of the portal's signing certificate it may hold several PEM blocks
   * (the new key and the old one): a signature holding under any of them verifies.
   */
  readonly signingKeyPem: string;
}

export interface NicOptions {
  /** How long one sign-in may hold the lease before another process may take it over. */
  readonly leaseMs?: number;
  /** Between two looks at the session while another process signs in. */
  readonly waitMs?: number;
  readonly timeoutMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
}

/** "Authentication": the token may be refreshed (ForceRefreshAccessToken) only within its last 10 minutes. */
const REFRESH_WINDOW_MS = 10 * 60_000;
/** A token this close to its expiry is not sent: a call in flight must not outlive it. */
const SAFETY_MS = 60_000;

/** The error list's vital and server-side codes: the portal or our credentials, never the document. */
const NOT_THE_DOCUMENT = new Set([
  '1004',
  '1005',
  '1006',
  '1007',
  '1008',
  '1010',
  '1011',
  '1012',
  '1013',
  '1014',
  '1015',
  '1016',
  '1017',
  '1018',
  '1019',
  '2146',
  '2147',
  '2141',
]);

/** Sign-in is version 1.04 (the request of authPayload); every other call is at 1.03. */
export const IRP_AUTH_PATH = '/eivital/v1.04/auth';

/** "yyyy-MM-dd HH:mm:ss" in India time (the portal's TokenExpiry) → epoch ms. */
const irpTime = (t: string): number => Date.parse(`${t.replace(' ', 'T')}+05:30`);

interface IrpAnswer {
  readonly Status?: unknown;
  readonly status?: unknown;
  readonly Data?: unknown;
  readonly data?: unknown;
  readonly ErrorDetails?: unknown;
  readonly InfoDtls?: unknown;
}

interface IrpError {
  readonly code: string;
  readonly message: string;
}

/** ErrorDetails is a JSON array, or (as the v1.03 pages put it) a Base64 string of one. */
function errorsOf(a: IrpAnswer): IrpError[] {
  let details = a.ErrorDetails;
  if (typeof details === 'string') {
    const text = details;
    try {
      details = JSON.parse(Buffer.from(text, 'base64').toString('utf8'));
    } catch {
      return [{ code: '?', message: text }];
    }
  }
  if (!Array.isArray(details)) return [{ code: '?', message: 'the IRP answered Status 0 without ErrorDetails' }];
  return details.map((d: { ErrorCode?: unknown; ErrorMessage?: unknown }) => ({ code: String(d.ErrorCode ?? '?'), message: String(d.ErrorMessage ?? '') }));
}

const succeeded = (a: IrpAnswer): boolean => String(a.Status ?? a.status) === '1';
const describe = (errors: readonly IrpError[]): string => errors.map((e) => `${e.code} ${e.message}`).join('; ');

/** The IRP's refusal as the port's error: the document's fault (rejected), or the portal's or our credentials' (try later). */
function failureOf(errors: readonly IrpError[]): Error {
  if (errors.some((e) => NOT_THE_DOCUMENT.has(e.code))) return new EInvoiceUnavailableError(describe(errors));
  return new EInvoiceRejectedError(errors.map((e) => e.code).join(','), errors.map((e) => e.message).join('; '));
}

/** Generate IRN / Get IRN details, response `Data` (version1.03/generate-irn.html, "Response Payload"). */
type IrnDetails = EInvoiceDetails;

/** The PEM blocks of a signing-key setting (one key, or the new and the old during a rotation). */
const pemBlocks = (pem: string): string[] => pem.match(/-----BEGIN [A-Z ]+-----[\s\S]*?-----END [A-Z ]+-----/g) ?? [pem];

/** A signed token verified under the first of the keys it holds under; the last key's refusal otherwise. */
function verifiedUnderAny(keys: readonly string[], token: string): Record<string, unknown> {
  let last: unknown;
  for (const key of keys) {
    try {
      return verifyIrpJws(key, token);
    } catch (err) {
      last = err;
    }
  }
  throw last instanceof Error ? last : new Error(String(last));
}

/**
 * The IRP's e-invoice API at the versions it serves today (docs/conformance/irp.md):
 * "Authentication" v1.04 (`POST /eivital/v1.04/auth`: one `Data` blob, RSA over Base64 of the
 * whole JSON, with the `Gstin` header; the v1.03 sign-in, Password and AppKey each encrypted
 * and no `Gstin` header, was replaced in 2021), and the v1.03 calls: "Generate IRN" (`POST /eicore/v1.03/Invoice`),
 * "Get IRN details by document details" (`GET /eicore/v1.03/Invoice/irnbydocdetails`),
 * "Get e-invoice by IRN" (`GET /eicore/v1.03/Invoice/irn/{irn}`), "Cancel IRN"
 * (`POST /eicore/v1.03/Invoice/Cancel`) and "Get GSTIN details"
 * (`GET /eivital/v1.03/Master/gstin/{gstin}`), with the encryption of infra/einvoice/irp-crypto.ts.
 *
 * One session per registration GSTIN, shared by every process through the session store:
 * used while it has more than 10 minutes left; in its last 10 minutes one process (the
 * lease holder) refreshes it with ForceRefreshAccessToken while the others keep using it;
 * when there is none, the others wait for the holder's. A token the portal refuses mid-call
 * (1005 Invalid Token: expired or revoked on its side) is replaced once and the call made
 * again.
 */
export class NicEInvoiceRegistry implements EInvoiceRegistry {
  private readonly leaseMs: number;
  private readonly waitMs: number;
  private readonly timeoutMs: number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    private readonly credentials: Readonly<Record<string, IrpCredential>>,
    private readonly sessions: IrpSessionStore,
    private readonly clock: Clock,
    opts: NicOptions = {},
  ) {
    this.leaseMs = opts.leaseMs ?? 30_000;
    this.waitMs = opts.waitMs ?? 100;
    this.timeoutMs = opts.timeoutMs ?? 15_000;
    this.sleep = opts.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  private credentialOf(gstin: string): IrpCredential {
    const c = this.credentials[gstin];
    if (!c)
      throw new EInvoiceUnavailableError(`no IRP credentials for registration ${gstin} in the stage secret (irpCredentials); docs/deploy.md, "E-invoicing"`);
    return c;
  }

  private async http(c: IrpCredential, method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: unknown): Promise<IrpAnswer> {
    let res: Response;
    try {
      res = await fetch(`${c.baseUrl.replace(/\/$/, '')}${path}`, {
        method,
        headers: { 'content-type': 'application/json', accept: 'application/json', client_id: c.clientId, client_secret: c.clientSecret, ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw new EInvoiceUnavailableError(
        `no answer from ${path} (${err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err)})`,
      );
    }
    if (res.status === 429) throw new EInvoiceUnavailableError(`${path} throttled the call (HTTP 429)`);
    if (res.status >= 500) throw new EInvoiceUnavailableError(`${path} answered HTTP ${res.status}`);
    const text = await res.text().catch(() => '');
    try {
      const answer = JSON.parse(text) as IrpAnswer;
      if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
      return answer;
    } catch {
      throw new EInvoiceUnavailableError(`${path} answered HTTP ${res.status} without the API's JSON`);
    }
  }

  /** "Authentication" v1.04: UserName, Password, a fresh AppKey and ForceRefreshAccessToken as one `Data` under the portal's public key, for the `Gstin` header's registration; the Sek comes back under the AppKey. */
  private async authenticate(gstin: string, force: boolean): Promise<IrpSession> {
    const c = this.credentialOf(gstin);
    const appKey = randomBytes(32);
    const answer = await this.http(
      c,
      'POST',
      IRP_AUTH_PATH,
      { Gstin: gstin },
      {
        Data: authPayload(c.publicKeyPem, { UserName: c.userName, Password: c.password, AppKey: appKey.toString('base64'), ForceRefreshAccessToken: force }),
      },
    );
    if (!succeeded(answer)) throw new EInvoiceUnavailableError(`the IRP refused our sign-in for ${gstin}: ${describe(errorsOf(answer))}`);
    const d = (answer.Data ?? answer.data) as { AuthToken?: string; Sek?: string; TokenExpiry?: string };
    if (!d?.AuthToken || !d.Sek || !d.TokenExpiry) throw new EInvoiceUnavailableError('the IRP signed us in without AuthToken, Sek or TokenExpiry');
    return { authToken: d.AuthToken, sek: aesEcbDecrypt(appKey, Buffer.from(d.Sek, 'base64')), expiresAt: irpTime(d.TokenExpiry) };
  }

  /**
   * A session to call with: the stored one while it has more than 10 minutes left; else the
   * lease holder signs in (forced refresh when the current token is still usable) and the
   * others use the current token if it is still good, or wait for the holder's. `refused`:
   * the token the portal just answered 1005 to, never used again.
   */
  private async session(gstin: string, refused?: string): Promise<IrpSession> {
    const rounds = Math.max(1, Math.ceil(this.leaseMs / this.waitMs));
    for (let round = 0; round <= rounds; round++) {
      const current = await this.sessions.get(gstin);
      const now = this.clock.now().getTime();
      const usable = current && current.authToken !== '' && current.authToken !== refused && current.expiresAt - now > SAFETY_MS ? current : undefined;
      if (usable && usable.expiresAt - now > REFRESH_WINDOW_MS) return usable;
      const holder = randomUUID();
      if (await this.sessions.lease(gstin, holder, now, now + this.leaseMs, current?.expiresAt)) {
        let fresh: IrpSession;
        try {
          fresh = await this.authenticate(gstin, usable !== undefined);
        } catch (err) {
          await this.sessions.release(gstin, holder);
          throw err;
        }
        await this.sessions.put(gstin, holder, fresh);
        return fresh;
      }
      if (usable) return usable;
      await this.sleep(this.waitMs);
    }
    throw new EInvoiceUnavailableError(`another process is signing in to the IRP for ${gstin} and has not finished`);
  }

  /** One API call with the session's headers and Sek; a 1005 (token expired or revoked on the portal's side) signs in again once. */
  private async call<T>(
    gstin: string,
    method: 'GET' | 'POST',
    path: string,
    payload?: unknown,
  ): Promise<{ ok: true; data: T } | { ok: false; errors: IrpError[]; info: unknown }> {
    const c = this.credentialOf(gstin);
    let s = await this.session(gstin);
    for (let attempt = 0; ; attempt++) {
      const answer = await this.http(
        c,
        method,
        path,
        { Gstin: gstin, user_name: c.userName, AuthToken: s.authToken },
        payload === undefined ? undefined : { Data: sealData(s.sek, payload) },
      );
      if (succeeded(answer)) {
        const data = answer.Data ?? answer.data;
        if (typeof data !== 'string') throw new EInvoiceUnavailableError(`${path} answered Status 1 without Data`);
        try {
          return { ok: true, data: openData<T>(s.sek, data) };
        } catch {
          throw new EInvoiceUnavailableError(`${path} answered Data the Sek does not decrypt`);
        }
      }
      const errors = errorsOf(answer);
      if (attempt === 0 && errors.some((e) => e.code === '1005')) {
        s = await this.session(gstin, s.authToken);
        continue;
      }
      return { ok: false, errors, info: answer.InfoDtls };
    }
  }

  /**
   * The answer's registration after the portal's signatures hold under its published key: an
   * unverified QR is never stored, but the portal has registered the document, so its IRN and
   * acknowledgement are held (EInvoiceHeldError SIGNATURE) and it is never sent again. `sent`:
   * for a duplicate, the document we sent, which the signed one must match (recipient GSTIN,
   * number, date, total) before its IRN is taken; another document is held for reconciliation.
   */
  private verified(gstin: string, d: IrnDetails, duplicate: boolean, sent?: EInvoicePayload): EInvoiceRegistered {
    const keys = pemBlocks(this.credentialOf(gstin).signingKeyPem);
    let signed: Record<string, unknown> | undefined;
    try {
      const qr = verifiedUnderAny(keys, d.SignedQRCode);
      if (qr.Irn !== d.Irn) throw new Error(`the signed QR names IRN ${String(qr.Irn)}, not ${d.Irn}`);
      signed = qr;
      if (d.SignedInvoice) {
        const invoice = verifiedUnderAny(keys, d.SignedInvoice);
        if (invoice.Irn !== d.Irn) throw new Error(`the signed invoice names IRN ${String(invoice.Irn)}, not ${d.Irn}`);
        signed = invoice;
      }
    } catch (err) {
      throw new EInvoiceHeldError(
        'SIGNATURE',
        { irn: d.Irn, ackNo: String(d.AckNo), ackDate: d.AckDt, signedQrCode: d.SignedQRCode, ...(d.SignedInvoice ? { signedInvoice: d.SignedInvoice } : {}) },
        `IRN ${d.Irn} (${err instanceof Error ? err.message : String(err)}); the IRN and acknowledgement are kept, the document is not sent again, and its signatures are verified again once the stage secret holds the portal's new signing key`,
      );
    }
    const differences = sent && signed ? differencesOf(sent, signed) : [];
    if (differences.length > 0) {
      // Another document holds this number at the portal: its IRN is never stored on ours.
      throw new EInvoiceHeldError(
        'RECONCILE',
        { irn: d.Irn, ackNo: String(d.AckNo), ackDate: d.AckDt },
        `2150 Duplicate IRN ${d.Irn}, but the portal's signed document differs from ours (${differences.join('; ')}): nothing stored as ours`,
      );
    }
    return {
      irn: d.Irn,
      ackNo: String(d.AckNo),
      ackDate: d.AckDt,
      signedQrCode: d.SignedQRCode,
      ...(d.SignedInvoice ? { signedInvoice: d.SignedInvoice } : {}),
      duplicate,
    };
  }

  async register(doc: EInvoicePayload): Promise<EInvoiceRegistered> {
    const gstin = doc.SellerDtls.Gstin;
    const answer = await this.call<IrnDetails>(gstin, 'POST', '/eicore/v1.03/Invoice', doc);
    if (answer.ok) return this.verified(gstin, answer.data, false);
    if (!answer.errors.some((e) => e.code === '2150')) throw failureOf(answer.errors);
    // 2150 Duplicate IRN: registered before (a lost answer, or another document with our number).
    // InfoDtls DUPIRN names the IRN: the signed document is fetched by it (else by type, number and date) and compared with ours.
    const irn = duplicateIrnOf(answer.info);
    const q = new URLSearchParams({ doctype: doc.DocDtls.Typ, docnum: doc.DocDtls.No, docdate: doc.DocDtls.Dt });
    const byIrn = irn ? await this.call<IrnDetails>(gstin, 'GET', `/eicore/v1.03/Invoice/irn/${irn}`) : undefined;
    const existing = byIrn?.ok ? byIrn : await this.call<IrnDetails>(gstin, 'GET', `/eicore/v1.03/Invoice/irnbydocdetails?${q}`);
    if (!existing.ok) {
      // 2283: the portal serves a registration's details only for 2 days; asking again never changes that.
      const tooOld = existing.errors.some((e) => e.code === '2283') || (byIrn !== undefined && !byIrn.ok && byIrn.errors.some((e) => e.code === '2283'));
      const dup = duplicateOf(answer.info);
      if (tooOld && dup)
        throw new EInvoiceHeldError(
          'RECONCILE',
          dup,
          `2150 Duplicate IRN ${dup.irn} (Ack ${dup.ackNo} of ${dup.ackDate}), and the portal no longer serves its signed document: ${describe(existing.errors)}`,
        );
      throw new EInvoiceUnavailableError(`2150 Duplicate IRN${irn ? ` ${irn}` : ''}, and its registration could not be fetched: ${describe(existing.errors)}`);
    }
    return this.verified(gstin, existing.data, true, doc);
  }

  async accept(sent: EInvoicePayload, details: EInvoiceDetails): Promise<EInvoiceRegistered> {
    return this.verified(sent.SellerDtls.Gstin, details, true, sent);
  }

  async cancel(c: EInvoiceCancellation): Promise<EInvoiceCancelled> {
    const answer = await this.call<{ Irn: string; CancelDate: string }>(c.supplierGstin, 'POST', '/eicore/v1.03/Invoice/Cancel', {
      Irn: c.irn,
      CnlRsn: c.reason,
      CnlRem: c.remark.slice(0, 100),
    });
    if (!answer.ok) throw failureOf(answer.errors);
    return { irn: answer.data.Irn, cancelDate: answer.data.CancelDate };
  }

  async taxpayer(gstin: string): Promise<Taxpayer> {
    // Any of our registrations may ask; the first configured one does.
    const ours = Object.keys(this.credentials)[0];
    if (!ours) throw new EInvoiceUnavailableError('no IRP credentials in the stage secret (irpCredentials)');
    const answer = await this.call<GstinDetails>(ours, 'GET', `/eivital/v1.03/Master/gstin/${encodeURIComponent(gstin)}`);
    if (!answer.ok) throw failureOf(answer.errors);
    return taxpayerOf(answer.data);
  }
}

/** The registration 2150's `InfoDtls` names: `[{InfCd: "DUPIRN", Desc: {AckNo, AckDt, Irn}}]`. */
function duplicateOf(info: unknown): { irn: string; ackNo: string | null; ackDate: string | null } | undefined {
  const dup = Array.isArray(info)
    ? (info as { InfCd?: unknown; Desc?: { Irn?: unknown; AckNo?: unknown; AckDt?: unknown } }[]).find((i) => i?.InfCd === 'DUPIRN')
    : undefined;
  const irn = dup?.Desc?.Irn;
  if (typeof irn !== 'string' || !/^[0-9a-f]{64}$/.test(irn)) return undefined;
  const ackNo = dup?.Desc?.AckNo;
  const ackDate = dup?.Desc?.AckDt;
  return { irn, ackNo: typeof ackNo === 'number' || typeof ackNo === 'string' ? String(ackNo) : null, ackDate: typeof ackDate === 'string' ? ackDate : null };
}

const duplicateIrnOf = (info: unknown): string | undefined => duplicateOf(info)?.irn;

/**
 * Where the portal's signed document (a signed invoice, or the signed QR's fields) differs
 * from the one we sent: recipient GSTIN, number, date and total.
 */
function differencesOf(sent: EInvoicePayload, signed: Record<string, unknown>): string[] {
  const s = signed as {
    BuyerDtls?: { Gstin?: unknown };
    DocDtls?: { No?: unknown; Dt?: unknown };
    ValDtls?: { TotInvVal?: unknown };
    BuyerGstin?: unknown;
    DocNo?: unknown;
    DocDt?: unknown;
    TotInvVal?: unknown;
  };
  const theirs = {
    recipient: s.BuyerDtls?.Gstin ?? s.BuyerGstin,
    number: s.DocDtls?.No ?? s.DocNo,
    date: s.DocDtls?.Dt ?? s.DocDt,
    total: s.ValDtls?.TotInvVal ?? s.TotInvVal,
  };
  const ours = { recipient: sent.BuyerDtls.Gstin, number: sent.DocDtls.No, date: sent.DocDtls.Dt, total: sent.ValDtls.TotInvVal };
  return (Object.keys(ours) as (keyof typeof ours)[])
    .filter((k) => String(theirs[k]) !== String(ours[k]))
    .map((k) => `${k} ${String(theirs[k])} at the portal, ${String(ours[k])} sent`);
}

/** Get GSTIN details, response `Data` (version1.03/get-gstin-details.html). */
export interface GstinDetails {
  readonly Gstin: string;
  readonly TradeName?: string | null;
  readonly LegalName?: string | null;
  readonly AddrBnm?: string | null;
  readonly AddrBno?: string | null;
  readonly AddrFlno?: string | null;
  readonly AddrSt?: string | null;
  readonly AddrLoc?: string | null;
  readonly StateCode?: number | string | null;
  readonly AddrPncd?: number | string | null;
  readonly Status?: string | null;
  readonly BlkStatus?: string | null;
}

const words = (...parts: (string | null | undefined)[]): string =>
  parts
    .map((p) => p?.trim())
    .filter(Boolean)
    .join(', ');

export function taxpayerOf(d: GstinDetails): Taxpayer {
  const line1 = words(d.AddrBno, d.AddrFlno, d.AddrBnm);
  const status = (['ACT', 'CNL', 'INA', 'PRO'] as const).find((s) => s === d.Status?.trim()) ?? 'INA';
  return {
    gstin: d.Gstin,
    legalName: d.LegalName?.trim() || null,
    tradeName: d.TradeName?.trim() || null,
    address:
      d.AddrLoc && d.AddrPncd
        ? {
            line1: line1 || words(d.AddrSt),
            line2: line1 ? words(d.AddrSt) || null : null,
            city: d.AddrLoc.trim(),
            stateCode: String(d.StateCode ?? '').padStart(2, '0'),
            postalCode: String(d.AddrPncd),
          }
        : null,
    status,
    blocked: d.BlkStatus?.trim() === 'B',
  };
}
