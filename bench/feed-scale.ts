import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Listing } from '../domain/catalogue/listing.ts';
import type { Property } from '../domain/catalogue/property.ts';
import type { Stored } from '../domain/catalogue/versioned.ts';
import type { Services } from '../infra/container.ts';
import { createDocumentClient } from '../infra/dynamo/client.ts';
import { catalogueItems } from '../infra/dynamo/dynamo-catalogue-store.ts';
import { keys } from '../infra/dynamo/keys.ts';

/**
 * The feed's own items for `count` listings on a channel, written directly: a listing view
 * (what a feed page returns) and a distribution row (what the feed index pages over) each.
 * The import path would also write properties, owners and months the feed never reads, and
 * take minutes for 100,000 listings; this measures the read, not the import.
 */
export async function writeFeedWorld(svc: Services, channelId: string, count: number): Promise<void> {
  const db = createDocumentClient(svc.config);
  const at = '2026-11-01T00:00:00.000Z';
  const items: Record<string, unknown>[] = [catalogueItems.channel({ channelId, name: channelId, rateAdjustmentPercent: 0, createdAt: at, updatedAt: at })];
  for (let i = 0; i < count; i++) {
    const id = `${channelId}-l${String(i).padStart(6, '0')}`;
    const updatedAt = new Date(Date.parse(at) + i * 1000).toISOString();
    const listing: Stored<Listing> = {
      id,
      title: `Feed Villa ${i}`,
      type: 'Villa',
      status: 'ACTIVE',
      brand: 'Feed Stays',
      locality: 'Baga',
      city: 'Goa',
      state: 'Goa',
      country: 'India',
      addressLine: `${i} Feed Road`,
      latitude: 15.55,
      longitude: 73.75,
      maxAdults: 6,
      maxChildren: 2,
      basePrice: 1_000_000,
      amenities: ['Pool'],
      tags: ['beach'],
      coverPicture: 'https://images.example.com/c.jpg',
      rating: 4.5,
      reviewCount: 10,
      usps: [],
      badges: [],
      cancellationPlanIds: ['flex'],
      defaultCancellationPlanId: 'flex',
      createdAt: at,
      updatedAt,
    };
    const property: Stored<Property> = {
      id: `${id}-p1`,
      listingId: id,
      name: 'Villa',
      title: 'Villa',
      brand: 'Feed Stays',
      type: 'Villa',
      bedrooms: 3,
      bathrooms: 3,
      numberOfBeds: 3,
      maxAdults: 6,
      maxChildren: 2,
      applicableAdult: 6,
      applicableChild: 2,
      extraAdultRate: 0,
      extraChildRate: 0,
      quantity: 1,
      isPetFriendly: false,
      numberOfPets: 0,
      isStressed: false,
      isHighDemand: false,
      imageUrl: 'https://images.example.com/p.jpg',
      photos: [],
      amenities: [],
      location: 'Baga',
      latitude: 15.55,
      longitude: 73.75,
      basePrice: 1_000_000,
      createdAt: at,
      updatedAt,
    };
    items.push({ ...keys.listingView(id), entity: 'ListingView', listingId: id, listing, properties: [property] });
    items.push(catalogueItems.distribution({ channelId, listingId: id, feedUpdatedAt: updatedAt, createdAt: at, updatedAt }));
  }
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  let next = 0;
  const lane = async () => {
    while (next < batches.length) {
      let pending = batches[next++]!.map((Item) => ({ PutRequest: { Item } }));
      while (pending.length) {
        const out = await db.send(new BatchWriteCommand({ RequestItems: { [svc.config.tableName]: pending } }));
        pending = (out.UnprocessedItems?.[svc.config.tableName] ?? []) as typeof pending;
      }
    }
  };
  await Promise.all(Array.from({ length: 16 }, lane));
  db.destroy();
}
