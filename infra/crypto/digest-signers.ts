import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import type { DigestSigner } from '../../domain/audit/digest.ts';

/*
 * The audit digests' signers (docs/audit.md "Digests"). Both sign ECDSA P-256 over SHA-256 with
 * DER signatures, so a digest checks the same way whichever signed it: in AWS a KMS asymmetric
 * key (ECC_NIST_P256, SIGN_VERIFY) whose private half never leaves KMS and which only the digest
 * job's role may use (kms:Sign); on local stages a key from the stage's settings
 * (AUDIT_SIGNING_KEY, base64 PKCS#8 DER).
 */

const fingerprint = (publicKey: KeyObject): string =>
  createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex')
    .slice(0, 32);

/** A local stage's signer, from the base64 PKCS#8 DER private key in AUDIT_SIGNING_KEY. */
export function localDigestSigner(base64Pkcs8: string): DigestSigner {
  const privateKey = createPrivateKey({ key: Buffer.from(base64Pkcs8, 'base64'), format: 'der', type: 'pkcs8' });
  const publicKey = createPublicKey(privateKey);
  return {
    keyId: `local:${fingerprint(publicKey)}`,
    sign: async (message) => sign('sha256', message, privateKey).toString('hex'),
    verify: async (message, signatureHex) => verify('sha256', message, publicKey, Buffer.from(signatureHex, 'hex')),
  };
}

/** A new local signing key (scripts/local-stack.ts gives each local or test stage one). */
export const newLocalSigningKey = (): string =>
  generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64');

/**
 * The cloud's signer: KMS signs the message's SHA-256 (MessageType DIGEST, ECDSA_SHA_256);
 * verification uses the key's public half (GetPublicKey, read once), checked locally as any
 * auditor with the public key can.
 */
export async function kmsDigestSigner(region: string, keyId: string): Promise<DigestSigner> {
  const { KMSClient, SignCommand, GetPublicKeyCommand } = await import('@aws-sdk/client-kms');
  const kms = new KMSClient({ region, maxAttempts: 3 });
  let publicKey: KeyObject | undefined;
  return {
    keyId,
    async sign(message) {
      const out = await kms.send(
        new SignCommand({ KeyId: keyId, Message: createHash('sha256').update(message).digest(), MessageType: 'DIGEST', SigningAlgorithm: 'ECDSA_SHA_256' }),
      );
      return Buffer.from(out.Signature!).toString('hex');
    },
    async verify(message, signatureHex) {
      publicKey ??= createPublicKey({ key: Buffer.from((await kms.send(new GetPublicKeyCommand({ KeyId: keyId }))).PublicKey!), format: 'der', type: 'spki' });
      return verify('sha256', message, publicKey, Buffer.from(signatureHex, 'hex'));
    },
  };
}
