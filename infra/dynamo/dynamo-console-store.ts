import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AuditDraft } from '../../domain/audit/audit-event.ts';
import { CONSOLE_TIMES } from '../../domain/console/sign-in.ts';
import type { Person } from '../../domain/console/people.ts';
import { ConflictError } from '../../domain/errors.ts';
import type { ConsoleSession, ConsoleStore, SignInLink } from '../../domain/ports/console-store.ts';
import { cancellationReasons, isConditionFailure } from './client.ts';
import type { DynamoAuditTrail } from './dynamo-audit-trail.ts';
import { consoleSessionEntity, personEmailEntity, personEntity, signInLinkEntity } from './entities/console.ts';
import { keys } from './keys.ts';
import { queryAll } from './query.ts';
import { GSI1 } from './table.ts';

/** The table's TTL attribute (epoch seconds): links and sessions past any use are dropped. */
const ttl = (iso: string, afterMs: number): number => Math.ceil((Date.parse(iso) + afterMs) / 1000);
const teamOf = (p: Person): string => (p.access.kind === 'partner' ? p.access.agentGroupId : 'OPERATORS');

function strip<T>(item: Record<string, unknown> | undefined): T | undefined {
  if (!item) return undefined;
  const { PK: _pk, SK: _sk, GSI1PK: _g1, GSI1SK: _g1s, entity: _e, expiresAt: _x, ...rest } = item;
  return rest as T;
}

/**
 * People, sign-in links and sessions on the single table. A person's address is claimed by an
 * item of its own in the person's transaction, so two invitations to one address cannot both
 * land; links and sessions live under the hash of their secret and expire by TTL.
 */
export class DynamoConsoleStore implements ConsoleStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly audit: DynamoAuditTrail,
  ) {}

  async getPerson(personId: string): Promise<Person | undefined> {
    // Consistent: "sign out everywhere" must hold on the very next page.
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.person(personId), ConsistentRead: true }));
    return strip<Person>(out.Item);
  }

  async findPersonByEmail(email: string): Promise<Person | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.personEmail(email), ConsistentRead: true }));
    const personId = out.Item?.personId as string | undefined;
    return personId === undefined ? undefined : this.getPerson(personId);
  }

  async listTeam(agentGroupId: string): Promise<Person[]> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      IndexName: GSI1,
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.team(agentGroupId).GSI1PK },
    });
    return items.map((i) => strip<Person>(i)!);
  }

  async createPerson(person: Person, audit: AuditDraft): Promise<void> {
    try {
      await this.audit.transact(
        [
          {
            Put: {
              TableName: this.table,
              Item: { ...keys.personEmail(person.email), entity: 'PersonEmail', personId: person.personId },
              ConditionExpression: personEmailEntity.conditions.isNew,
            },
          },
          {
            Put: {
              TableName: this.table,
              Item: { ...keys.person(person.personId), ...keys.personTeamIndex(teamOf(person), person.email), entity: 'Person', ...person },
              ConditionExpression: personEntity.conditions.isNew,
            },
          },
        ],
        audit,
      );
    } catch (err) {
      if (isConditionFailure(err) || cancellationReasons(err).some((r) => r.Code === 'ConditionalCheckFailed')) {
        throw new ConflictError('CONFLICT', `${person.email} already has access to the console.`);
      }
      throw err;
    }
  }

  async revokeSessions(personId: string, at: string, audit: AuditDraft): Promise<void> {
    await this.audit.transact(
      [
        {
          Update: {
            TableName: this.table,
            Key: keys.person(personId),
            UpdateExpression: 'SET sessionsValidAfter = :at',
            ConditionExpression: personEntity.conditions.exists,
            ExpressionAttributeValues: { ':at': at },
          },
        },
      ],
      audit,
    );
  }

  async putSignInLink(link: SignInLink): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: {
          ...keys.signInLink(link.linkHash),
          entity: 'SignInLink',
          personId: link.personId,
          expiresAtIso: link.expiresAt,
          expiresAt: ttl(link.expiresAt, 0),
        },
        ConditionExpression: signInLinkEntity.conditions.isNew,
      }),
    );
  }

  async takeSignInLink(linkHash: string): Promise<SignInLink | undefined> {
    try {
      const out = await this.db.send(
        new DeleteCommand({
          TableName: this.table,
          Key: keys.signInLink(linkHash),
          ConditionExpression: signInLinkEntity.conditions.unused,
          ReturnValues: 'ALL_OLD',
        }),
      );
      const item = out.Attributes;
      return item ? { linkHash, personId: item.personId as string, expiresAt: item.expiresAtIso as string } : undefined;
    } catch (err) {
      if (isConditionFailure(err)) return undefined;
      throw err;
    }
  }

  async putSession(session: ConsoleSession): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: {
          ...keys.consoleSession(session.sessionHash),
          entity: 'ConsoleSession',
          ...session,
          expiresAt: ttl(session.createdAt, CONSOLE_TIMES.absoluteMs),
        },
        ConditionExpression: consoleSessionEntity.conditions.isNew,
      }),
    );
  }

  async getSession(sessionHash: string): Promise<ConsoleSession | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.consoleSession(sessionHash), ConsistentRead: true }));
    return strip<ConsoleSession>(out.Item);
  }

  async touchSession(sessionHash: string, at: string): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: keys.consoleSession(sessionHash),
          UpdateExpression: 'SET lastSeenAt = :at',
          ConditionExpression: consoleSessionEntity.conditions.seenBefore,
          ExpressionAttributeValues: { ':at': at },
        }),
      );
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
  }

  async deleteSession(sessionHash: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.table, Key: keys.consoleSession(sessionHash) }));
  }
}
