import type { WorldInput } from '../domain/world/world-schema.ts';
import { addDays } from '../domain/catalogue/calendar.ts';

/** Where the generated listings stand: 50 towns, each listing within about 2 km of its town's centre. */
const TOWNS = Array.from({ length: 50 }, (_, t) => ({
  city: `Town ${String(t).padStart(2, '0')}`,
  state: ['Goa', 'Maharashtra', 'Karnataka', 'Kerala', 'Himachal Pradesh'][t % 5]!,
  latitude: 9 + (t % 10) * 2.1,
  longitude: 73 + Math.floor(t / 10) * 1.3,
}));
const TAGS = ['beach', 'pool', 'mountain-view', 'heritage', 'pet-friendly', 'workation'];

/**
 * A catalogue for the search benchmark: `listings` listings spread over 50 towns (so a
 * city filter leaves about 2 %), each with a whole villa (8 adults) and two cottages (3
 * adults each), `days` days of inventory and EP/CP rates from `from`, and a stop-sell
 * night every 10 days on every tenth listing so availability has something to refuse.
 */
export function searchWorld(opts: { channelId: string; listings: number; from: string; days: number }): WorldInput {
  const plans = ['sb-flexible', 'sb-nonref'];
  const to = addDays(opts.from, opts.days - 1);
  const listings = Array.from({ length: opts.listings }, (_, i) => {
    const town = TOWNS[i % TOWNS.length]!;
    const slot = Math.floor(i / TOWNS.length);
    const id = `sb-l${String(i).padStart(5, '0')}`;
    const latitude = Number((town.latitude + ((slot % 10) - 5) * 0.003).toFixed(5));
    const longitude = Number((town.longitude + (Math.floor(slot / 10) - 5) * 0.003).toFixed(5));
    const property = (key: string, over: { maxAdults: number; applicableAdult: number; quantity: number; bedrooms: number; basePrice: number; isPetFriendly?: boolean }) => ({
      id: `${id}-${key}`,
      name: key === 'villa' ? 'Whole villa' : 'Garden cottage',
      type: key === 'villa' ? 'ENTIRE_HOME' : 'COTTAGE',
      bathrooms: over.bedrooms,
      numberOfBeds: over.bedrooms,
      maxChildren: 2,
      applicableChild: 1,
      extraAdultRate: 1_200,
      extraChildRate: 600,
      imageUrl: 'https://images.example.com/sb.jpg',
      ...over,
    });
    return {
      id,
      title: `Search Villa ${i}`,
      type: i % 3 === 0 ? 'BUNGALOW' : 'VILLA',
      brand: `Brand ${i % 7}`,
      locality: `Ward ${slot % 5}`,
      city: town.city,
      state: town.state,
      addressLine: `${i} Search Road`,
      latitude,
      longitude,
      maxAdults: 14,
      maxChildren: 6,
      basePrice: 9_000,
      amenities: ['Wi-Fi', ...(i % 2 ? ['Private pool'] : []), ...(i % 5 ? [] : ['Barbecue'])],
      tags: TAGS.filter((_, k) => (i + k) % 3 === 0),
      coverPicture: 'https://images.example.com/sb-cover.jpg',
      rating: Number((3.5 + ((i * 37) % 15) / 10).toFixed(1)),
      reviewCount: (i * 53) % 400,
      channelIds: [opts.channelId],
      cancellationPlanIds: plans,
      defaultCancellationPlanId: plans[0]!,
      properties: [
        property('villa', { maxAdults: 8, applicableAdult: 6, quantity: 1, bedrooms: 4, basePrice: 9_000 + (i % 40) * 250, isPetFriendly: i % 4 === 0 }),
        property('cottage', { maxAdults: 3, applicableAdult: 2, quantity: 2, bedrooms: 1, basePrice: 3_500 + (i % 30) * 100 }),
      ],
    };
  });
  const properties = listings.flatMap((l) => l.properties.map((p) => ({ ...p, listing: l })));
  const stopSells = (propertyId: string, i: number) =>
    i % 10 === 0 ? Array.from({ length: Math.floor(opts.days / 10) }, (_, k) => ({ propertyId, from: addDays(opts.from, k * 10 + 5), to: addDays(opts.from, k * 10 + 5), quantity: 0, stopSell: true })) : [];
  return {
    version: 1,
    channels: [{ channelId: opts.channelId, name: 'Search bench channel' }],
    catalogue: {
      cancellationPlans: [
        { planId: plans[0]!, name: 'Flexible', planType: 'FLEXIBLE', schedule: [{ daysBeforeCheckIn: 7, refundPercentage: 100, label: 'Full refund' }] },
        { planId: plans[1]!, name: 'Non-refundable', planType: 'NON_REFUNDABLE', discountPercent: 12, schedule: [] },
      ],
      listings,
      inventory: properties.flatMap((p, n) => [{ propertyId: p.id, from: opts.from, to, quantity: p.quantity, minimumStay: 1, maximumStay: 30 }, ...stopSells(p.id, Math.floor(n / 2))]),
      rates: properties.flatMap((p) =>
        (['EP'] as const).map((mealPlan, k) => ({
          propertyId: p.id,
          from: opts.from,
          to,
          mealPlan,
          adults: Object.fromEntries(Array.from({ length: p.applicableAdult }, (_, a) => [String(a + 1), Math.round(p.basePrice * (0.7 + 0.1 * a)) + k * 400 * (a + 1)])),
        })),
      ),
    },
  };
}
