import type { AuditDraft } from '../audit/audit-event.ts';
import type { Person } from '../console/people.ts';

/** A one-time sign-in link as stored: only the token's hash, never the token. */
export interface SignInLink {
  readonly linkHash: string;
  readonly personId: string;
  readonly expiresAt: string;
}

/** A console session as stored: only the cookie value's hash. */
export interface ConsoleSession {
  readonly sessionHash: string;
  readonly personId: string;
  /** The CSRF token every POST of this session carries (a form field). */
  readonly csrfToken: string;
  readonly createdAt: string;
  readonly lastSeenAt: string;
}

/** People, their sign-in links and their sessions (single table in AWS). */
export interface ConsoleStore {
  getPerson(personId: string): Promise<Person | undefined>;
  findPersonByEmail(email: string): Promise<Person | undefined>;
  /** The people of one agent group's account, by address. */
  listTeam(agentGroupId: string): Promise<Person[]>;
  /** Fails with ConflictError when the address already has a person; the audit event commits with it. */
  createPerson(person: Person, audit: AuditDraft): Promise<void>;
  /** Refuses every session begun before `at`, with its audit event. */
  revokeSessions(personId: string, at: string, audit: AuditDraft): Promise<void>;
  putSignInLink(link: SignInLink): Promise<void>;
  /** Uses the link up atomically: the first caller gets it, every later one (and a missing link) undefined. */
  takeSignInLink(linkHash: string): Promise<SignInLink | undefined>;
  putSession(session: ConsoleSession): Promise<void>;
  getSession(sessionHash: string): Promise<ConsoleSession | undefined>;
  touchSession(sessionHash: string, at: string): Promise<void>;
  deleteSession(sessionHash: string): Promise<void>;
}
