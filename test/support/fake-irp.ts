import { constants, createSign, generateKeyPairSync, privateDecrypt, randomBytes, randomInt, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EInvoicePayload } from '../../domain/invoicing/e-invoice.ts';
import type { Clock } from '../../domain/ports/clock.ts';
import { aesEcbDecrypt, aesEcbEncrypt, openData, sealData } from '../../infra/einvoice/irp-crypto.ts';
import { irnOf, irpInstant, rejectionOf } from '../../infra/einvoice/sandbox-e-invoice-registry.ts';

/**
 * A contract-faithful IRP on a local port, as the e-invoice API documents it today
 * (docs/conformance/irp.md: sign-in only at v1.04, the other calls at v1.03): its own RSA key pair for the auth payload and another for
 * its RS256 signatures, the Sek handed out under the caller's AppKey, every payload under
 * the Sek (AES-256-ECB, PKCS#7), tokens valid 360 minutes and refreshable with
 * ForceRefreshAccessToken only in the last 10, the error codes of its published list, the
 * 24-hour cancellation window, and the faults a real portal has (down, throttling, a lost
 * answer, a token revoked mid-run). Its time is the injected clock's.
 */
export interface FakeIrpUser {
  readonly gstin: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly userName: string;
  readonly password: string;
  /**
   * The registration's aggregate turnover is ₹10 crore or more: from 1 April 2025 the portal
   * refuses its documents dated more than 30 days before the day of reporting (2305).
   */
  readonly reportingWindow?: boolean;
}

export interface FakeIrpTaxpayer {
  readonly Gstin: string;
  readonly TradeName: string | null;
  readonly LegalName: string | null;
  readonly AddrBnm: string | null;
  readonly AddrBno: string | null;
  readonly AddrFlno: string | null;
  readonly AddrSt: string | null;
  readonly AddrLoc: string | null;
  readonly StateCode: number;
  readonly AddrPncd: number | null;
  readonly TxpType: string;
  readonly Status: 'ACT' | 'CNL' | 'INA' | 'PRO';
  readonly BlkStatus: 'B' | 'U' | null;
}

interface Session {
  authToken: string;
  sek: Buffer;
  expiresAt: number;
  revoked: boolean;
}

interface Registration {
  readonly gstin: string;
  readonly doc: EInvoicePayload;
  readonly AckNo: number;
  readonly AckDt: string;
  readonly Irn: string;
  readonly SignedInvoice: string;
  readonly SignedQRCode: string;
  registeredAt: number;
  Status: 'ACT' | 'CNL';
}

export interface FakeIrp {
  readonly url: string;
  /** The portal's public key (PEM) that encrypts the auth payload. */
  readonly encryptionPublicKeyPem: string;
  /** The portal's published public key (PEM) that verifies its signed invoices and QR codes (the current one after a rotation). */
  readonly signingPublicKeyPem: string;
  /** The portal rotates its signing certificate: registrations from now on are signed under a new key, whose PEM this answers. */
  rotateSigningKey(): string;
  /** Back to the key the fake started with (the shared stack's tests hold only that one). */
  restoreSigningKey(): void;
  /** Moves the registrations of this document number (every one without it) this many milliseconds into the past: a registration made days ago, for the 2-day rule of 2283. */
  age(ms: number, docNo?: string): void;
  /** Decrypts with the portal's private key: for the crypto known-answer tests. */
  decryptWithPortalKey(ciphertext: Buffer): Buffer;
  /** Every request, by path without query. */
  readonly calls: { readonly path: string; readonly gstin: string | undefined; readonly forceRefresh?: boolean }[];
  /** Auth requests that issued a new token (not the same one answered again). */
  tokensIssued(): number;
  /** 'down': every call answers 503; 'throttled': 429. */
  fault: 'down' | 'throttled' | undefined;
  /** The next n Generate IRN calls register the document and then drop the connection (the answer is lost). */
  loseAnswers(n: number): void;
  /** Revokes every token now (as an expiry on the portal's side the client did not foresee): the next call answers 1005. */
  revokeTokens(): void;
  /** Revokes the tokens after this many more successful Generate IRN calls. */
  revokeTokensAfter(calls: number): void;
  /** The answer Generate IRN gives a document of this number or buyer GSTIN instead of its own checks (a code of the published list). */
  refuse(docNoOrBuyerGstin: string, code: string, message: string): void;
  registrationOf(irn: string): Registration | undefined;
  close(): Promise<void>;
}

const VALIDITY_MS = 360 * 60_000;
/** Get IRN details serves a registration for 2 days; after that 2283 (docs/conformance/irp.md). */
const DETAILS_SERVED_MS = 2 * 24 * 3600_000;
const FORCE_WINDOW_MS = 10 * 60_000;
/** GSTN advisory of 5 Nov 2024: "if an invoice is dated 1st April 2025, it cannot be reported after 30th April 2025". */
const REPORTING_WINDOW_LAST_DAY = 29;

/**
 * The HSN/SAC master's codes of the services this project supplies (chapter 99: 9963
 * accommodation, 99855 tour operator services), as the GST HSN master lists them (the copy
 * resilient-tech/india-compliance ships, `gst_india/data/hsn_codes.json`). Generate IRN
 * refuses any other code with 2176 unless a test hands the fake a master of its own.
 */
export const FAKE_IRP_HSN_MASTER: readonly string[] = [
  '996311',
  '996312',
  '996313',
  '996321',
  '996322',
  '996329',
  '996331',
  '996332',
  '996333',
  '996334',
  '996335',
  '996336',
  '996337',
  '996339',
  '998551',
  '998552',
  '998553',
  '998554',
  '998555',
  '998556',
  '998557',
  '998559',
];

const keyPair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = (k: KeyObject): string => k.export({ type: 'spki', format: 'pem' }).toString();

function signJws(key: KeyObject, data: unknown): string {
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const head = `${b64({ alg: 'RS256', kid: 'FAKE-IRP', typ: 'JWT' })}.${b64({ data: JSON.stringify(data), iss: 'NIC' })}`;
  return `${head}.${createSign('RSA-SHA256').update(head).sign(key).toString('base64url')}`;
}

/** dd/mm/yyyy → yyyy-mm-dd. */
const isoOf = (irpDate: string): string => irpDate.split('/').reverse().join('-');
const daysBetween = (from: string, to: string): number => (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;

const errorBody = (code: string, message: string, info: unknown = null) => ({
  Status: '0',
  Data: null,
  ErrorDetails: [{ ErrorCode: code, ErrorMessage: message }],
  InfoDtls: info,
});

export async function startFakeIrp(opts: {
  clock: Clock;
  users: readonly FakeIrpUser[];
  taxpayers?: readonly FakeIrpTaxpayer[];
  hsnMaster?: readonly string[];
}): Promise<FakeIrp> {
  const hsnMaster = new Set(opts.hsnMaster ?? FAKE_IRP_HSN_MASTER);
  const encryption = keyPair();
  const firstSigning = keyPair();
  let signing = firstSigning;
  const sessions = new Map<string, Session>();
  const registrations = new Map<string, Registration>();
  const refusals = new Map<string, { code: string; message: string }>();
  const calls: FakeIrp['calls'] = [];
  let issued = 0;
  let lostAnswers = 0;
  let revokeAfter: number | undefined;
  const now = () => opts.clock.now().getTime();

  const userOf = (gstin: string | undefined) => opts.users.find((u) => u.gstin === gstin);

  /**
   * "Authentication" v1.04: the `Gstin` header names the registration (1004 without it, 1015
   * when it is not the API user's), and `Data` is the whole request under the portal's key.
   */
  function auth(headers: IncomingMessage['headers'], body: { Data?: string }) {
    const user = opts.users.find((u) => u.clientId === headers.client_id && u.clientSecret === headers.client_secret);
    if (!user) return errorBody('1010', 'Invalid Client-ID/Client-Secret');
    if (!headers.gstin) return errorBody('1004', 'Header GSTIN is required');
    if (headers.gstin !== user.gstin) return errorBody('1015', 'Invalid GSTIN for this user');
    let request: { UserName?: string; Password?: string; AppKey?: string; ForceRefreshAccessToken?: boolean };
    try {
      const b64 = privateDecrypt({ key: encryption.privateKey, padding: constants.RSA_PKCS1_PADDING }, Buffer.from(body.Data ?? '', 'base64')).toString(
        'ascii',
      );
      request = JSON.parse(Buffer.from(b64, 'base64').toString('utf8'));
    } catch {
      return errorBody('1013', 'Decryption of password failed');
    }
    if (request.UserName !== user.userName || request.Password !== user.password) return errorBody('1008', 'Invalid login credentials');
    const appKey = Buffer.from(request.AppKey ?? '', 'base64');
    if (appKey.length !== 32) return errorBody('1016', 'Decryption of App Key failed');
    calls[calls.length - 1] = { ...calls[calls.length - 1]!, gstin: user.gstin, forceRefresh: request.ForceRefreshAccessToken === true };
    let session = sessions.get(user.gstin);
    const live = session && !session.revoked && session.expiresAt > now();
    // "Any hits to this API within these 360 minutes will return the same token"; a new one only when forced in the last 10 minutes.
    const renew = !live || (request.ForceRefreshAccessToken === true && session!.expiresAt - now() <= FORCE_WINDOW_MS);
    if (renew) {
      session = { authToken: randomBytes(18).toString('base64url'), sek: randomBytes(32), expiresAt: now() + VALIDITY_MS, revoked: false };
      sessions.set(user.gstin, session);
      issued++;
    }
    return {
      Status: 1,
      Data: {
        ClientId: user.clientId,
        UserName: user.userName,
        AuthToken: session!.authToken,
        Sek: aesEcbEncrypt(appKey, session!.sek).toString('base64'),
        TokenExpiry: irpInstant(new Date(session!.expiresAt)),
      },
      ErrorDetails: null,
      InfoDtls: null,
    };
  }

  /** The session a call's headers name, or the vital error the portal answers. */
  function sessionOf(headers: IncomingMessage['headers']): Session | ReturnType<typeof errorBody> {
    const gstin = headers.gstin as string | undefined;
    if (!gstin) return errorBody('1004', 'Header GSTIN is required');
    const user = userOf(gstin);
    if (!user || user.clientId !== headers.client_id || user.clientSecret !== headers.client_secret)
      return errorBody('1010', 'Invalid Client-ID/Client-Secret');
    if (headers.user_name !== user.userName) return errorBody('1005', 'Invalid Token');
    const s = sessions.get(gstin);
    if (!s || s.revoked || s.expiresAt <= now() || s.authToken !== headers.authtoken) return errorBody('1005', 'Invalid Token');
    return s;
  }

  const ok = (s: Session, data: unknown, info: unknown = null) => ({ Status: '1', Data: sealData(s.sek, data), ErrorDetails: null, InfoDtls: info });
  /** Get IRN details of a registration: 2283 once it is older than the 2 days the portal serves it. */
  const served = (s: Session, r: Registration) =>
    now() - r.registeredAt > DETAILS_SERVED_MS
      ? errorBody('2283', 'IRN details cannot be provided as it is generated more than 2 days ago')
      : ok(s, detailsOf(r));
  const detailsOf = (r: Registration) => ({
    AckNo: r.AckNo,
    AckDt: r.AckDt,
    Irn: r.Irn,
    SignedInvoice: r.SignedInvoice,
    SignedQRCode: r.SignedQRCode,
    Status: r.Status,
    EwbNo: null,
    EwbDt: null,
    EwbValidTill: null,
  });

  function generate(s: Session, gstin: string, body: { Data?: string }): { answer: unknown; lose: boolean } {
    let doc: EInvoicePayload;
    try {
      doc = openData<EInvoicePayload>(s.sek, body.Data ?? '');
    } catch {
      return { answer: errorBody('2140', 'Error while validating invoice: the payload could not be decrypted with the Sek'), lose: false };
    }
    if (doc.SellerDtls?.Gstin !== gstin) return { answer: errorBody('2143', 'Invoice does not belongs to the user GSTIN'), lose: false };
    const refusal = refusals.get(doc.DocDtls.No) ?? refusals.get(doc.BuyerDtls?.Gstin ?? '');
    if (refusal) return { answer: errorBody(refusal.code, refusal.message), lose: false };
    // A recipient the GSTIN master has as anything but ACT (BlkStatus, the e-way bill block, does not count).
    const buyer = opts.taxpayers?.find((t) => t.Gstin === doc.BuyerDtls?.Gstin);
    if (buyer && buyer.Status !== 'ACT') return { answer: errorBody('3029', 'GSTIN is not active'), lose: false };
    const today = irpInstant(opts.clock.now()).slice(0, 10);
    const rejection = rejectionOf(doc, today);
    if (rejection) return { answer: errorBody(rejection.code, rejection.irpMessage), lose: false };
    // NIC-ERR 2176 "Invalid HSN code(s)-{0}": every item's code must be in the HSN/SAC master.
    const unknown = [...new Set(doc.ItemList.map((i) => i.HsnCd).filter((c) => !hsnMaster.has(c)))];
    if (unknown.length) return { answer: errorBody('2176', `Invalid HSN code(s)-${unknown.join(',')}`), lose: false };
    if (userOf(gstin)?.reportingWindow && daysBetween(isoOf(doc.DocDtls.Dt), today) > REPORTING_WINDOW_LAST_DAY)
      return { answer: errorBody('2305', 'IRN cannot be generated with document date prior to 30 days from today'), lose: false };
    const irn = irnOf(doc);
    const existing = registrations.get(irn);
    if (existing)
      return {
        answer: errorBody('2150', 'Duplicate IRN', [{ InfCd: 'DUPIRN', Desc: { AckNo: existing.AckNo, AckDt: existing.AckDt, Irn: existing.Irn } }]),
        lose: false,
      };
    const AckDt = irpInstant(opts.clock.now());
    const AckNo = Number(`1${AckDt.slice(2, 4)}${String(randomInt(1e6)).padStart(6, '0')}${String(randomInt(1e6)).padStart(6, '0')}`);
    const qr = {
      SellerGstin: gstin,
      BuyerGstin: doc.BuyerDtls.Gstin,
      DocNo: doc.DocDtls.No,
      DocTyp: doc.DocDtls.Typ,
      DocDt: doc.DocDtls.Dt,
      TotInvVal: doc.ValDtls.TotInvVal,
      ItemCnt: doc.ItemList.length,
      MainHsnCode: doc.ItemList[0]!.HsnCd,
      Irn: irn,
      IrnDt: AckDt,
    };
    const r: Registration = {
      gstin,
      doc,
      AckNo,
      AckDt,
      Irn: irn,
      SignedInvoice: signJws(signing.privateKey, { AckNo, AckDt, Irn: irn, ...doc }),
      SignedQRCode: signJws(signing.privateKey, qr),
      registeredAt: now(),
      Status: 'ACT',
    };
    registrations.set(irn, r);
    if (revokeAfter !== undefined && --revokeAfter <= 0) {
      revokeAfter = undefined;
      for (const x of sessions.values()) x.revoked = true;
    }
    const lose = lostAnswers > 0;
    if (lose) lostAnswers--;
    return { answer: ok(s, detailsOf(r)), lose };
  }

  function cancel(s: Session, gstin: string, body: { Data?: string }) {
    const c = openData<{ Irn?: string; CnlRsn?: string; CnlRem?: string }>(s.sek, body.Data ?? '');
    if (!['1', '2', '3', '4'].includes(String(c.CnlRsn).trim())) return errorBody('2140', 'Error while validating invoice: CnlRsn must be one of 1, 2, 3, 4');
    const r = registrations.get(c.Irn ?? '');
    if (!r) return errorBody('2148', 'Requested IRN data is not available');
    if (r.gstin !== gstin) return errorBody('2143', 'Invoice does not belongs to the user GSTIN');
    if (r.Status === 'CNL') return errorBody('9999', 'Invoice is not active');
    if (now() - r.registeredAt > 24 * 3600_000) return errorBody('2270', 'The allowed cancellation time limit is crossed, you cannot cancel the IRN');
    r.Status = 'CNL';
    return ok(s, { Irn: r.Irn, CancelDate: irpInstant(opts.clock.now()) });
  }

  function gstinDetails(s: Session, gstin: string) {
    const t = opts.taxpayers?.find((x) => x.Gstin === gstin);
    if (!t) return errorBody('3001', 'Requested data is not available');
    return ok(s, t);
  }

  /** The test's controls over HTTP, for tests in other processes than the one that started the fake (the shared stack's). */
  function control(method: string | undefined, path: string, body: Record<string, unknown>): { status: number; answer: unknown } | undefined {
    if (method === 'POST' && path === '/_fake/fault') fake.fault = (body.fault as FakeIrp['fault']) ?? undefined;
    else if (method === 'POST' && path === '/_fake/lose-answers') fake.loseAnswers(Number(body.n));
    else if (method === 'POST' && path === '/_fake/refuse') fake.refuse(String(body.key), String(body.code), String(body.message));
    else if (method === 'POST' && path === '/_fake/revoke-tokens') fake.revokeTokens();
    else if (method === 'POST' && path === '/_fake/age') fake.age(Number(body.ms), String(body.docNo));
    else if (method === 'POST' && path === '/_fake/restore-signing-key') fake.restoreSigningKey();
    else if (method === 'POST' && path === '/_fake/rotate-signing-key') return { status: 200, answer: { signingPublicKeyPem: fake.rotateSigningKey() } };
    else if (method === 'GET' && path === '/_fake/tokens-issued') return { status: 200, answer: { tokensIssued: issued } };
    else if (method === 'GET' && path.startsWith('/_fake/registrations/')) {
      const r = registrations.get(path.slice('/_fake/registrations/'.length));
      return r ? { status: 200, answer: detailsOf(r) } : { status: 404, answer: null };
    } else return undefined;
    return { status: 204, answer: null };
  }

  const route = async (req: IncomingMessage, body: Record<string, string>): Promise<{ status: number; answer: unknown; lose?: boolean }> => {
    const url = new URL(req.url ?? '/', 'http://fake-irp');
    const controlled = url.pathname.startsWith('/_fake/') ? control(req.method, url.pathname, body) : undefined;
    if (controlled) return controlled;
    calls.push({ path: url.pathname, gstin: req.headers.gstin as string | undefined });
    if (fake.fault === 'down') return { status: 503, answer: { message: 'Service Unavailable' } };
    if (fake.fault === 'throttled') return { status: 429, answer: { message: 'Too Many Requests' } };
    if (req.method === 'POST' && url.pathname === '/eivital/v1.04/auth') return { status: 200, answer: auth(req.headers, body) };
    // The v1.03 sign-in wants Password and AppKey encrypted one by one: the v1.04 `Data` blob there is a malformed request.
    if (req.method === 'POST' && url.pathname === '/eivital/v1.03/auth')
      return { status: 200, answer: errorBody('1007', 'Authentication failed. Pls. inform the helpdesk') };
    const s = sessionOf(req.headers);
    if (!('sek' in s)) return { status: 200, answer: s };
    const gstin = req.headers.gstin as string;
    if (req.method === 'POST' && url.pathname === '/eicore/v1.03/Invoice') {
      const g = generate(s, gstin, body);
      return { status: 200, answer: g.answer, lose: g.lose };
    }
    if (req.method === 'GET' && url.pathname === '/eicore/v1.03/Invoice/irnbydocdetails') {
      const p = url.searchParams;
      const r = [...registrations.values()].find(
        (x) => x.gstin === gstin && x.doc.DocDtls.Typ === p.get('doctype') && x.doc.DocDtls.No === p.get('docnum') && x.doc.DocDtls.Dt === p.get('docdate'),
      );
      return { status: 200, answer: r ? served(s, r) : errorBody('2148', 'Requested IRN data is not available') };
    }
    const byIrn = /^\/eicore\/v1\.03\/Invoice\/irn\/([0-9a-f]{64})$/.exec(url.pathname);
    if (req.method === 'GET' && byIrn) {
      const r = registrations.get(byIrn[1]!);
      return { status: 200, answer: r && r.gstin === gstin ? served(s, r) : errorBody('2148', 'Requested IRN data is not available') };
    }
    if (req.method === 'POST' && url.pathname === '/eicore/v1.03/Invoice/Cancel') return { status: 200, answer: cancel(s, gstin, body) };
    const master = /^\/eivital\/v1\.03\/Master\/gstin\/([0-9A-Z]{15})$/.exec(url.pathname);
    if (req.method === 'GET' && master) return { status: 200, answer: gstinDetails(s, master[1]!) };
    return { status: 404, answer: { message: 'not found' } };
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: Record<string, string> = {};
      try {
        body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
      } catch {
        body = {};
      }
      route(req, body).then(
        ({ status, answer, lose }) => {
          if (lose) {
            res.socket?.destroy();
            return;
          }
          if (status === 204) res.writeHead(204).end();
          else res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
        },
        (err: unknown) => res.writeHead(500).end(String(err)),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const fake: FakeIrp = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    encryptionPublicKeyPem: pem(encryption.publicKey),
    get signingPublicKeyPem() {
      return pem(signing.publicKey);
    },
    rotateSigningKey: () => {
      signing = keyPair();
      return pem(signing.publicKey);
    },
    restoreSigningKey: () => void (signing = firstSigning),
    age: (ms, docNo) => {
      for (const r of registrations.values()) if (docNo === undefined || r.doc.DocDtls.No === docNo) r.registeredAt -= ms;
    },
    decryptWithPortalKey: (c) => privateDecrypt({ key: encryption.privateKey, padding: constants.RSA_PKCS1_PADDING }, c),
    calls,
    tokensIssued: () => issued,
    fault: undefined,
    loseAnswers: (n) => void (lostAnswers = n),
    revokeTokens: () => {
      for (const x of sessions.values()) x.revoked = true;
    },
    revokeTokensAfter: (n) => void (revokeAfter = n),
    refuse: (docNo, code, message) => void refusals.set(docNo, { code, message }),
    registrationOf: (irn) => registrations.get(irn),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return fake;
}

/** For the known-answer tests: the Sek as the fake hands it out, decrypted as a client would. */
export const sekUnder = (appKey: Buffer, encryptedSek: string): Buffer => aesEcbDecrypt(appKey, Buffer.from(encryptedSek, 'base64'));

/** The controls of a fake IRP another process started (the shared test stack's), over its `/_fake/` routes. */
export function fakeIrpAt(url: string) {
  const send = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const res = await fetch(`${url}/_fake/${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return res.status === 200 ? ((await res.json()) as unknown) : undefined;
  };
  return {
    fault: (fault: FakeIrp['fault']) => send('POST', 'fault', { fault: fault ?? null }),
    loseAnswers: (n: number) => send('POST', 'lose-answers', { n }),
    refuse: (key: string, code: string, message: string) => send('POST', 'refuse', { key, code, message }),
    revokeTokens: () => send('POST', 'revoke-tokens'),
    age: (ms: number, docNo: string) => send('POST', 'age', { ms, docNo }),
    restoreSigningKey: () => send('POST', 'restore-signing-key'),
    rotateSigningKey: async () => ((await send('POST', 'rotate-signing-key')) as { signingPublicKeyPem: string }).signingPublicKeyPem,
    tokensIssued: async () => ((await send('GET', 'tokens-issued')) as { tokensIssued: number }).tokensIssued,
    registrationOf: async (irn: string) =>
      (await send('GET', `registrations/${irn}`)) as
        | { AckNo: number; AckDt: string; Irn: string; SignedInvoice: string; SignedQRCode: string; Status: 'ACT' | 'CNL' }
        | undefined,
  };
}
