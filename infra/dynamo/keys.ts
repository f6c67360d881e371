/**
 * Every key format of the single table lives here; nothing else in the code builds a
 * PK or SK string.
 */
export interface Key {
  readonly PK: string;
  readonly SK: string;
}

export const keys = {
  partner: (partnerId: string): Key => ({ PK: `PARTNER#${partnerId}`, SK: 'PROFILE' }),
  partnerIndex: (partnerId: string) => ({ GSI1PK: 'PARTNERS', GSI1SK: partnerId }),
  allPartners: () => ({ GSI1PK: 'PARTNERS' }),

  agentGroup: (agentGroupId: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: 'PROFILE' }),
  agentGroupIndex: (agentGroupId: string, partnerId: string) => ({ GSI1PK: 'GROUPS', GSI1SK: `${partnerId}#${agentGroupId}` }),
  allAgentGroups: () => ({ GSI1PK: 'GROUPS' }),
  agentGroupsOfPartnerPrefix: (partnerId: string) => `${partnerId}#`,
  callbackSecret: (agentGroupId: string): Key => ({ PK: `GROUP#${agentGroupId}`, SK: 'CALLBACK_SECRET' }),

  apiKey: (keyHash: string): Key => ({ PK: `APIKEY#${keyHash}`, SK: 'APIKEY' }),
  apiKeyOwnerIndex: (ownerKind: string, ownerId: string, createdAt: string, keyId: string) => ({
    GSI1PK: `KEYS#${ownerKind}#${ownerId}`,
    GSI1SK: `${createdAt}#${keyId}`,
  }),
  keysOfOwner: (ownerKind: string, ownerId: string) => ({ GSI1PK: `KEYS#${ownerKind}#${ownerId}` }),
  apiKeyIdIndex: (keyId: string) => ({ GSI2PK: `KEYID#${keyId}`, GSI2SK: 'APIKEY' }),

  rateBucket: (bucketId: string): Key => ({ PK: `BUCKET#${bucketId}`, SK: 'BUCKET' }),
} as const;
