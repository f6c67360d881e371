import type { AuditDraft } from '../../../domain/audit/audit-event.ts';
import type { Person } from '../../../domain/console/people.ts';
import { ConflictError } from '../../../domain/errors.ts';
import type { ConsoleSession, ConsoleStore, SignInLink } from '../../../domain/ports/console-store.ts';
import type { MailMessage, Mailer } from '../../../domain/ports/mailer.ts';
import type { RateLimiter } from '../../../domain/ports/rate-limiter.ts';
import { admit } from '../../../domain/rate-limit.ts';

/** The console's people, links and sessions in memory, with the audit drafts each change would commit. */
export class InMemoryConsoleStore implements ConsoleStore {
  readonly people = new Map<string, Person>();
  readonly links = new Map<string, SignInLink>();
  readonly sessions = new Map<string, ConsoleSession>();
  readonly audit: AuditDraft[] = [];

  async getPerson(personId: string) {
    return this.people.get(personId);
  }
  async findPersonByEmail(email: string) {
    return [...this.people.values()].find((p) => p.email === email);
  }
  async listTeam(agentGroupId: string) {
    return [...this.people.values()]
      .filter((p) => p.access.kind === 'partner' && p.access.agentGroupId === agentGroupId)
      .sort((a, b) => a.email.localeCompare(b.email));
  }
  async createPerson(person: Person, audit: AuditDraft) {
    if (await this.findPersonByEmail(person.email)) throw new ConflictError('CONFLICT', 'taken');
    this.people.set(person.personId, person);
    this.audit.push(audit);
  }
  async revokeSessions(personId: string, at: string, audit: AuditDraft) {
    const p = this.people.get(personId);
    if (p) this.people.set(personId, { ...p, sessionsValidAfter: at });
    this.audit.push(audit);
  }
  async putSignInLink(link: SignInLink) {
    this.links.set(link.linkHash, link);
  }
  async takeSignInLink(linkHash: string) {
    const link = this.links.get(linkHash);
    this.links.delete(linkHash);
    return link;
  }
  async putSession(session: ConsoleSession) {
    this.sessions.set(session.sessionHash, session);
  }
  async getSession(sessionHash: string) {
    return this.sessions.get(sessionHash);
  }
  async touchSession(sessionHash: string, at: string) {
    const s = this.sessions.get(sessionHash);
    if (s) this.sessions.set(sessionHash, { ...s, lastSeenAt: at });
  }
  async deleteSession(sessionHash: string) {
    this.sessions.delete(sessionHash);
  }
}

/** Mail kept in order of sending: the unit tier's mailbox. */
export class InMemoryMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  async send(message: MailMessage) {
    this.sent.push(message);
    return { messageId: `mem-${this.sent.length}` };
  }
  /** The sign-in token of the last message to `to`. */
  lastToken(to: string): string {
    const message = this.sent.findLast((m) => m.to.includes(to));
    const token = message && /[?&]token=([A-Za-z0-9_-]+)/.exec(message.text)?.[1];
    if (!token) throw new Error(`no sign-in link mailed to ${to}`);
    return token;
  }
}

/** The pure GCRA decision over a map: the same admission rule as the DynamoDB limiter, in one process. */
export class InMemoryRateLimiter implements RateLimiter {
  private readonly tats = new Map<string, number>();
  async consume(bucketId: string, policy: Parameters<RateLimiter['consume']>[1], now: number) {
    const decision = admit(policy, this.tats.get(bucketId), now);
    if (decision.allowed) this.tats.set(bucketId, decision.tat);
    return decision;
  }
}
