import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A platform authenticator in software for the unit tier: an ES256 key pair per credential,
 * "none" attestation, user present and verified, and the answers a browser hands the page
 * (WebAuthn Level 3 §6.1 authenticator data, §5.8.1 client data; CTAP2 COSE_Key for EC2/P-256).
 */
export class SoftwareAuthenticator {
  private readonly credentials = new Map<string, { key: KeyObject; rpId: string; counter: number }>();

  constructor(private readonly countsSignatures = true) {}

  private static authData(rpId: string, flags: number, counter: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([createHash('sha256').update(rpId).digest(), Buffer.from([flags]), count, attested ?? Buffer.alloc(0)]);
  }

  private static clientData(type: string, challenge: string, origin: string): string {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false })).toString('base64url');
  }

  /** navigator.credentials.create: a new credential for rpId, answering the challenge as `origin` would. */
  create(options: { challenge: string; rp: { id?: string } }, origin: string): { id: string; json: string } {
    const rpId = options.rp.id!;
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]);
    const credentialId = randomBytes(16);
    const id = credentialId.toString('base64url');
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credentialId.length);
    const counter = this.countsSignatures ? 1 : 0;
    this.credentials.set(id, { key: privateKey, rpId, counter });
    // UP | UV | AT
    const authData = SoftwareAuthenticator.authData(
      rpId,
      0x45,
      counter,
      Buffer.concat([Buffer.alloc(16), idLength, credentialId, Buffer.from(isoCBOR.encode(cose))]),
    );
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]) as never,
    );
    const json = JSON.stringify({
      id,
      rawId: id,
      type: 'public-key',
      clientExtensionResults: {},
      response: {
        clientDataJSON: SoftwareAuthenticator.clientData('webauthn.create', options.challenge, origin),
        attestationObject: Buffer.from(attestationObject).toString('base64url'),
        transports: ['internal'],
      },
    });
    return { id, json };
  }

  /** navigator.credentials.get with a discoverable credential: signs the challenge as `origin` would. */
  get(credentialId: string, options: { challenge: string }, origin: string): string {
    const credential = this.credentials.get(credentialId);
    if (!credential) throw new Error('no such credential');
    if (this.countsSignatures) credential.counter += 1;
    const clientDataJSON = SoftwareAuthenticator.clientData('webauthn.get', options.challenge, origin);
    // UP | UV
    const authData = SoftwareAuthenticator.authData(credential.rpId, 0x05, credential.counter);
    const signature = sign('sha256', Buffer.concat([authData, createHash('sha256').update(Buffer.from(clientDataJSON, 'base64url')).digest()]), credential.key);
    return JSON.stringify({
      id: credentialId,
      rawId: credentialId,
      type: 'public-key',
      clientExtensionResults: {},
      response: { clientDataJSON, authenticatorData: authData.toString('base64url'), signature: signature.toString('base64url'), userHandle: null },
    });
  }

  /** The credential's key used elsewhere: a cloned authenticator whose counter fell behind. */
  rewind(credentialId: string, by: number): void {
    this.credentials.get(credentialId)!.counter -= by;
  }
}
