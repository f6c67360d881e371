import { ITEM_EXISTS, ITEM_IS_NEW } from '../items.ts';
import { keys } from '../keys.ts';

/*
 * The console's items (docs/console.md): a Person (PK = PERSON#<id>, on GSI1 under their team),
 * the claim on their address (PersonEmail), sign-in links and sessions under the hash of their
 * secret (expired by TTL). DynamoConsoleStore takes its conditions from here.
 */

export const personEntity = {
  name: 'Person',
  key: keys.person,
  conditions: {
    /** A person is created once: an id collision refuses the invitation. */
    isNew: ITEM_IS_NEW,
    /** Signing out everywhere writes on a person that is there; one removed meanwhile is an error, not a new item. */
    exists: ITEM_EXISTS,
  },
} as const;

export const personEmailEntity = {
  name: 'PersonEmail',
  key: keys.personEmail,
  conditions: {
    /** One person per address: of two invitations to one address, the second is refused. */
    isNew: ITEM_IS_NEW,
  },
} as const;

export const signInLinkEntity = {
  name: 'SignInLink',
  key: keys.signInLink,
  conditions: {
    /** A link's hash is never reused. */
    isNew: ITEM_IS_NEW,
    /** A link is taken by deleting it only if it is still there: of two clicks racing, exactly one gets it. */
    unused: ITEM_EXISTS,
  },
} as const;

export const consoleSessionEntity = {
  name: 'ConsoleSession',
  key: keys.consoleSession,
  conditions: {
    /** A session's hash is never reused. */
    isNew: ITEM_IS_NEW,
    /** Seen at `:at`: never revives a session signed out meanwhile, never moves its last sight back. */
    seenBefore: 'attribute_exists(PK) AND lastSeenAt < :at',
  },
} as const;
