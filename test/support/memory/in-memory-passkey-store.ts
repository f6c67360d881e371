import type { AuditDraft } from '../../../domain/audit/audit-event.ts';
import { ConflictError } from '../../../domain/errors.ts';
import type { Passkey, PasskeyChallenge, PasskeyStore } from '../../../domain/ports/passkey-store.ts';

/** Passkeys and ceremony challenges in memory, with the audit drafts each change would commit. */
export class InMemoryPasskeyStore implements PasskeyStore {
  readonly passkeys = new Map<string, Passkey>();
  readonly challenges = new Map<string, PasskeyChallenge>();
  readonly audit: AuditDraft[] = [];

  async putChallenge(challenge: PasskeyChallenge) {
    this.challenges.set(challenge.challenge, challenge);
  }
  async takeChallenge(challenge: string) {
    const stored = this.challenges.get(challenge);
    this.challenges.delete(challenge);
    return stored;
  }
  async addPasskey(passkey: Passkey, audit: AuditDraft) {
    if (this.passkeys.has(passkey.credentialId)) throw new ConflictError('CONFLICT', 'taken');
    this.passkeys.set(passkey.credentialId, passkey);
    this.audit.push(audit);
  }
  async getPasskey(credentialId: string) {
    return this.passkeys.get(credentialId);
  }
  async listPasskeys(personId: string) {
    return [...this.passkeys.values()].filter((k) => k.personId === personId).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }
  async recordUse(passkey: Passkey, previous: number, counter: number, at: string) {
    const stored = this.passkeys.get(passkey.credentialId);
    if (stored?.counter !== previous) return false;
    this.passkeys.set(passkey.credentialId, { ...stored, counter, lastUsedAt: at });
    return true;
  }
  async removePasskey(personId: string, credentialId: string, audit: AuditDraft) {
    if (this.passkeys.get(credentialId)?.personId !== personId) return false;
    this.passkeys.delete(credentialId);
    this.audit.push(audit);
    return true;
  }
}
