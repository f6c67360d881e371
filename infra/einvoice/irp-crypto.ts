import { constants, createCipheriv, createDecipheriv, createPublicKey, createVerify, publicEncrypt, type KeyObject } from 'node:crypto';

/**
 * The encryption and signatures of the e-invoice API (einv-apisandbox.nic.in):
 *
 * - "Authentication" version 1.04 (`/eivital/v1.04/auth`; the GSP pages that relay it, e.g.
 *   docs.gsp.vayana.com "E-Invoice / Authentication Call", quote NIC's steps): the auth JSON
 *   (UserName, Password, AppKey, ForceRefreshAccessToken) is Base64-encoded and the result
 *   encrypted with the portal's RSA public key (PKCS#1 v1.5 padding, as the portal's
 *   Java sample's "RSA/ECB/PKCS1Padding"), sent Base64 as `Data`. (Version 1.03 encrypted
 *   Password and AppKey one by one; that request is not sent.)
 * - Same page, Response Payload: `Sek` is "generated using AES 256 (AES/ECB/PKCS7Padding)"
 *   and encrypted with the AppKey: AES-256-ECB, PKCS#7, Base64.
 * - "Generate IRN" and every later call: the request JSON encrypted with the Sek
 *   (AES-256-ECB, PKCS#7) and sent Base64 as `Data`; the answer's `Data` decrypted the same way.
 * - "Generate IRN", Response: `SignedInvoice` and `SignedQRCode` are JWS ("SHA256RSA",
 *   i.e. RS256) under the IRP's signing key, whose public key the portal publishes (a
 *   different key from the one used to encrypt the auth payload).
 */

/** RSA public-key encryption with PKCS#1 v1.5 padding, as the auth API wants. */
export function rsaEncrypt(publicKeyPem: string | KeyObject, plaintext: Buffer): Buffer {
  return publicEncrypt({ key: publicKeyPem, padding: constants.RSA_PKCS1_PADDING }, plaintext);
}

function aes(mode: 'encrypt' | 'decrypt', key: Buffer, input: Buffer): Buffer {
  if (key.length !== 32) throw new Error(`an AES-256 key is 32 bytes; got ${key.length}`);
  // ECB takes no IV; Node's default auto-padding is PKCS#7.
  const c = mode === 'encrypt' ? createCipheriv('aes-256-ecb', key, null) : createDecipheriv('aes-256-ecb', key, null);
  return Buffer.concat([c.update(input), c.final()]);
}

/** AES-256-ECB with PKCS#7 padding (the Sek under the AppKey, and every payload under the Sek). */
export const aesEcbEncrypt = (key: Buffer, plaintext: Buffer): Buffer => aes('encrypt', key, plaintext);
export const aesEcbDecrypt = (key: Buffer, ciphertext: Buffer): Buffer => aes('decrypt', key, ciphertext);

/** The auth request's `Data`: Base64(RSA(Base64(JSON))). */
export function authPayload(
  publicKeyPem: string | KeyObject,
  body: { UserName: string; Password: string; AppKey: string; ForceRefreshAccessToken: boolean },
): string {
  return rsaEncrypt(publicKeyPem, Buffer.from(Buffer.from(JSON.stringify(body), 'utf8').toString('base64'), 'ascii')).toString('base64');
}

/** A request's `Data` under the Sek: Base64(AES(JSON)). */
export const sealData = (sek: Buffer, json: unknown): string => aesEcbEncrypt(sek, Buffer.from(JSON.stringify(json), 'utf8')).toString('base64');

/** An answer's `Data` under the Sek, parsed. */
export const openData = <T>(sek: Buffer, data: string): T => JSON.parse(aesEcbDecrypt(sek, Buffer.from(data, 'base64')).toString('utf8')) as T;

/**
 * The payload of a JWS (compact, RS256) after its signature holds under the IRP's public
 * key; throws otherwise. The IRP's tokens carry `{data: "<JSON text>", iss: "NIC"}`, and
 * the JSON text is returned parsed.
 */
export function verifyIrpJws(publicKeyPem: string | KeyObject, token: string): Record<string, unknown> {
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((p) => p === '')) throw new Error('not a signed token (three dot-separated parts)');
  const [header, payload, signature] = parts as [string, string, string];
  let alg: unknown;
  try {
    alg = (JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: unknown }).alg;
  } catch {
    throw new Error('the token header is not JSON');
  }
  // Only RS256: a token naming another algorithm (none, HS256 with the public key as secret) is refused.
  if (alg !== 'RS256') throw new Error(`the token is signed ${JSON.stringify(alg)}, not RS256`);
  const key = typeof publicKeyPem === 'string' ? createPublicKey(publicKeyPem) : publicKeyPem;
  const ok = createVerify('RSA-SHA256').update(`${header}.${payload}`).verify(key, Buffer.from(signature, 'base64url'));
  if (!ok) throw new Error("the signature does not hold for the IRP's public key");
  const body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { data?: unknown };
  if (typeof body.data !== 'string') throw new Error('the token carries no data');
  return JSON.parse(body.data) as Record<string, unknown>;
}
