/** The catalogue events a partner can subscribe an endpoint to (docs/webhooks.md). */
export const CATALOGUE_EVENT_TYPES = [
  { eventType: 'listing.updated', entityType: 'listing', description: "A listing's catalogue data changed. fromDate and toDate are null." },
  { eventType: 'property.updated', entityType: 'property', description: "A property's data changed. fromDate and toDate are null." },
  {
    eventType: 'inventory.changed',
    entityType: 'inventory',
    description: "A sync changed a property's availability; entityId is the property id and fromDate..toDate the smallest window covering the changed dates.",
  },
  {
    eventType: 'rate.changed',
    entityType: 'rate',
    description: "A sync changed a property's rates; entityId is the property id and fromDate..toDate the smallest window covering the changed dates.",
  },
] as const;

export type CatalogueEventType = (typeof CATALOGUE_EVENT_TYPES)[number]['eventType'];
export const EVENT_TYPE_NAMES = ['listing.updated', 'property.updated', 'inventory.changed', 'rate.changed'] as const satisfies readonly CatalogueEventType[];
