import { createCipheriv, createHmac, createSign, generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aesEcbDecrypt, aesEcbEncrypt, authPayload, openData, rsaEncrypt, sealData, verifyIrpJws } from '../../infra/einvoice/irp-crypto.ts';
import { startFakeIrp, type FakeIrp } from '../support/fake-irp.ts';

/**
 * Known answers pinning the e-invoice API's algorithms (einv-apisandbox.nic.in v1.03,
 * "Authentication" and "Generate IRN"): RSA PKCS#1 v1.5 for the auth payload, AES-256-ECB
 * with PKCS#7 for the Sek and the data, RS256 for the IRP's signatures.
 */
const hex = (s: string) => Buffer.from(s, 'hex');

// NIST SP 800-38A, F.1.5 ECB-AES256.Encrypt.
const NIST_KEY = hex('603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4');
const NIST_PLAIN = hex('6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710');
const NIST_CIPHER = hex('f3eed1bdb5d2a03c064b5a7e3db181f8591ccb10d410ed26dc5ba74a31362870b6ed21b99ca6f4f9f153e7b1beafed1d23304b7a39f9f3ff067d8d8f9e24ecc7');

let fake: FakeIrp;
beforeAll(async () => {
  fake = await startFakeIrp({ clock: { now: () => new Date() }, users: [] });
});
afterAll(() => fake.close());

describe('AES-256-ECB with PKCS#7 (Sek under the AppKey, data under the Sek)', () => {
  it('matches the NIST SP 800-38A ECB-AES256 vectors block for block, then one full block of padding 0x10', () => {
    const out = aesEcbEncrypt(NIST_KEY, NIST_PLAIN);
    expect(out.subarray(0, 64).toString('hex')).toBe(NIST_CIPHER.toString('hex'));
    expect(out).toHaveLength(80);
    const raw = createCipheriv('aes-256-ecb', NIST_KEY, null).setAutoPadding(false);
    expect(out.subarray(64).toString('hex')).toBe(Buffer.concat([raw.update(Buffer.alloc(16, 0x10)), raw.final()]).toString('hex'));
    expect(aesEcbDecrypt(NIST_KEY, out).toString('hex')).toBe(NIST_PLAIN.toString('hex'));
  });

  it('pads a short plaintext to one block (PKCS#7: n bytes of value n) and refuses a key that is not 32 bytes', () => {
    const raw = createCipheriv('aes-256-ecb', NIST_KEY, null).setAutoPadding(false);
    const padded = Buffer.concat([Buffer.from('{"a":1}'), Buffer.alloc(9, 9)]);
    expect(aesEcbEncrypt(NIST_KEY, Buffer.from('{"a":1}')).toString('hex')).toBe(Buffer.concat([raw.update(padded), raw.final()]).toString('hex'));
    expect(() => aesEcbEncrypt(Buffer.alloc(16), Buffer.from('x'))).toThrow(/32 bytes/);
  });

  it('seals and opens JSON data as Base64 under the Sek', () => {
    const data = sealData(NIST_KEY, { Irn: 'x', CnlRsn: '1' });
    expect(Buffer.from(data, 'base64')).toHaveLength(32);
    expect(openData(NIST_KEY, data)).toEqual({ Irn: 'x', CnlRsn: '1' });
    expect(() => openData(hex('00'.repeat(32)), data)).toThrow();
  });
});

describe('RSA PKCS#1 v1.5 under the portal key (the auth payload)', () => {
  it('encrypts Base64(JSON) so that the portal, with its private key, reads the UserName, Password, AppKey and ForceRefreshAccessToken', () => {
    const body = { UserName: 'api_user', Password: 'p@ss', AppKey: Buffer.alloc(32, 7).toString('base64'), ForceRefreshAccessToken: true };
    const data = authPayload(fake.encryptionPublicKeyPem, body);
    const cipher = Buffer.from(data, 'base64');
    expect(cipher).toHaveLength(256);
    expect(JSON.parse(Buffer.from(fake.decryptWithPortalKey(cipher).toString('ascii'), 'base64').toString('utf8'))).toEqual(body);
  });

  it('uses random padding (two encryptions differ) that the portal key still opens', () => {
    const a = rsaEncrypt(fake.encryptionPublicKeyPem, Buffer.from('same'));
    const b = rsaEncrypt(fake.encryptionPublicKeyPem, Buffer.from('same'));
    expect(a.equals(b)).toBe(false);
    expect(fake.decryptWithPortalKey(a).toString()).toBe('same');
    expect(fake.decryptWithPortalKey(b).toString()).toBe('same');
  });
});

describe('RS256 JWS of the IRP (SignedQRCode, SignedInvoice)', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const sign = (header: unknown, data: unknown, key = privateKey) => {
    const head = `${b64(header)}.${b64({ data: JSON.stringify(data), iss: 'NIC' })}`;
    return `${head}.${createSign('RSA-SHA256').update(head).sign(key).toString('base64url')}`;
  };
  const qr = { Irn: 'a'.repeat(64), DocNo: '30/2026-27/000001' };

  it("returns the data of a token whose signature holds under the IRP's public key", () => {
    expect(verifyIrpJws(pem, sign({ alg: 'RS256', typ: 'JWT' }, qr))).toEqual(qr);
  });

  it('refuses a token signed by another key, a tampered payload, alg none and HS256 keyed with the public key', () => {
    expect(() => verifyIrpJws(pem, sign({ alg: 'RS256' }, qr, other.privateKey))).toThrow(/does not hold/);
    const [h, , s] = sign({ alg: 'RS256' }, qr).split('.');
    expect(() => verifyIrpJws(pem, `${h}.${b64({ data: JSON.stringify({ ...qr, DocNo: 'X' }), iss: 'NIC' })}.${s}`)).toThrow(/does not hold/);
    expect(() => verifyIrpJws(pem, `${b64({ alg: 'none' })}.${b64({ data: '{}' })}.x`)).toThrow(/not RS256/);
    const head = `${b64({ alg: 'HS256' })}.${b64({ data: JSON.stringify(qr) })}`;
    expect(() => verifyIrpJws(pem, `${head}.${createHmac('sha256', pem).update(head).digest('base64url')}`)).toThrow(/not RS256/);
    expect(() => verifyIrpJws(pem, 'two.parts')).toThrow(/three/);
  });
});
