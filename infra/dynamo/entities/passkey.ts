import { ITEM_EXISTS, ITEM_IS_NEW } from '../items.ts';
import { keys } from '../keys.ts';

/*
 * Passkeys (docs/console.md): a Passkey under its person (PK = PERSON#<id>, SK = PASSKEY#<credential
 * id>), the PasskeyClaim under the credential id naming the person (written in the same
 * transaction), and a ceremony's PasskeyChallenge under its value (expired by TTL).
 * DynamoPasskeyStore takes its conditions from here.
 */

export const passkeyEntity = {
  name: 'Passkey',
  key: keys.passkey,
  conditions: {
    /** Registered once. */
    isNew: ITEM_IS_NEW,
    /** Removed only while it is there: removing one twice, or another person's, removes nothing. */
    exists: ITEM_EXISTS,
    /**
     * A sign-in moves the counter only from the value it verified against (`#counter` → counter,
     * `:previous`): of two sign-ins racing with one assertion, one wins; a removed passkey takes none.
     */
    counterAt: 'attribute_exists(PK) AND #counter = :previous',
  },
} as const;

export const passkeyClaimEntity = {
  name: 'PasskeyClaim',
  key: keys.passkeyClaim,
  conditions: {
    /** One credential belongs to one person: registering it again, by anyone, is refused. */
    isNew: ITEM_IS_NEW,
    /** Released only by the person it names (`:person`). */
    claimedBy: 'personId = :person',
  },
} as const;

export const passkeyChallengeEntity = {
  name: 'PasskeyChallenge',
  key: keys.passkeyChallenge,
  conditions: {
    /** A challenge's value is never reused. */
    isNew: ITEM_IS_NEW,
    /** Taken by deleting it only if it is still there: of two answers racing on one challenge, exactly one gets it. */
    unused: ITEM_EXISTS,
  },
} as const;
