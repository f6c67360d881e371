import { eachDate, weekdayOf } from '../catalogue/calendar.ts';
import type { CatalogueContent } from '../catalogue/catalogue-diff.ts';
import type { DayData, DayInventory, MealPlan } from '../catalogue/day.ts';
import type { Listing } from '../catalogue/listing.ts';
import type { Property } from '../catalogue/property.ts';
import { DEFAULT_SIMULATOR } from '../catalogue/simulator.ts';
import type { Minor } from '../money.ts';
import type { WorldDocument } from './world-schema.ts';

/**
 * The catalogue a checked world document describes, in domain records (paise). Daily
 * ranges are expanded to dates in file order, so a later range wins on the dates it
 * shares with an earlier one: wholesale for inventory, per meal plan and adult count for
 * rates.
 */
export function worldCatalogue(doc: WorldDocument): CatalogueContent {
  const listings: Listing[] = [];
  const properties: Property[] = [];
  for (const l of doc.catalogue.listings) {
    listings.push({
      id: l.id,
      title: l.title,
      type: l.type,
      status: l.status,
      brand: l.brand,
      locality: l.locality,
      city: l.city,
      state: l.state,
      country: l.country,
      addressLine: l.addressLine,
      latitude: l.latitude,
      longitude: l.longitude,
      maxAdults: l.maxAdults,
      maxChildren: l.maxChildren,
      basePrice: l.basePrice,
      amenities: l.amenities,
      tags: l.tags,
      coverPicture: l.coverPicture,
      rating: l.rating,
      reviewCount: l.reviewCount,
      usps: l.usps,
      badges: l.badges,
      cancellationPlanIds: l.cancellationPlanIds,
      defaultCancellationPlanId: l.defaultCancellationPlanId,
    });
    for (const p of l.properties) {
      properties.push({
        id: p.id,
        listingId: l.id,
        name: p.name,
        title: p.title ?? p.name,
        brand: p.brand ?? l.brand,
        type: p.type,
        bedrooms: p.bedrooms,
        bathrooms: p.bathrooms,
        numberOfBeds: p.numberOfBeds,
        maxAdults: p.maxAdults,
        maxChildren: p.maxChildren,
        applicableAdult: p.applicableAdult,
        applicableChild: p.applicableChild,
        extraAdultRate: p.extraAdultRate,
        extraChildRate: p.extraChildRate,
        quantity: p.quantity,
        isPetFriendly: p.isPetFriendly,
        numberOfPets: p.numberOfPets,
        isStressed: p.isStressed,
        isHighDemand: p.isHighDemand,
        imageUrl: p.imageUrl,
        photos: p.photos,
        amenities: p.amenities,
        location: p.location ?? l.locality,
        latitude: p.latitude ?? l.latitude,
        longitude: p.longitude ?? l.longitude,
        basePrice: p.basePrice,
      });
    }
  }
  const { listings: ls } = doc.catalogue;
  return {
    channels: doc.channels.map((c) => ({ channelId: c.channelId, name: c.name, rateAdjustmentPercent: c.rateAdjustmentPercent })),
    cancellationPlans: doc.catalogue.cancellationPlans,
    gstRegistrations: doc.gst.registrations,
    gstSlabTables: doc.gst.slabTables,
    listings,
    properties,
    meals: ls.flatMap((l) => l.meals.map((m) => ({ listingId: l.id, ...m }))),
    vas: ls.flatMap((l) => l.vas.map((s) => ({ listingId: l.id, ...s }))),
    simulators: ls.map((l) => ({ listingId: l.id, ...DEFAULT_SIMULATOR, ...l.simulator })),
    distributions: ls.flatMap((l) => l.channelIds.map((channelId) => ({ channelId, listingId: l.id }))),
    offers: doc.catalogue.offers.map((o) => ({ ...o, percent: o.percent ?? null, flatAmount: o.flatAmount ?? null })),
    days: expandDays(doc),
  };
}

type MutableRates = Partial<Record<MealPlan, Record<string, Minor>>>;

function expandDays(doc: WorldDocument): Map<string, Map<string, DayData>> {
  const inventory = new Map<string, Map<string, DayInventory>>();
  const rates = new Map<string, Map<string, MutableRates>>();
  const applies = (daysOfWeek: readonly string[] | undefined, date: string) => !daysOfWeek || daysOfWeek.includes(weekdayOf(date));

  for (const r of doc.catalogue.inventory) {
    const days = inventory.get(r.propertyId) ?? new Map<string, DayInventory>();
    inventory.set(r.propertyId, days);
    const value: DayInventory = { quantity: r.quantity, minimumStay: r.minimumStay, maximumStay: r.maximumStay, stopSell: r.stopSell };
    for (const date of eachDate(r.from, r.to)) if (applies(r.daysOfWeek, date)) days.set(date, value);
  }
  for (const r of doc.catalogue.rates) {
    const days = rates.get(r.propertyId) ?? new Map<string, MutableRates>();
    rates.set(r.propertyId, days);
    for (const date of eachDate(r.from, r.to)) {
      if (!applies(r.daysOfWeek, date)) continue;
      const day = days.get(date) ?? {};
      day[r.mealPlan] = { ...day[r.mealPlan], ...r.adults };
      days.set(date, day);
    }
  }

  const out = new Map<string, Map<string, DayData>>();
  for (const propertyId of new Set([...inventory.keys(), ...rates.keys()])) {
    const inv = inventory.get(propertyId) ?? new Map<string, DayInventory>();
    const rts = rates.get(propertyId) ?? new Map<string, MutableRates>();
    const days = new Map<string, DayData>();
    for (const date of [...new Set([...inv.keys(), ...rts.keys()])].sort()) {
      days.set(date, { inventory: inv.get(date) ?? null, rates: rts.get(date) ?? {} });
    }
    out.set(propertyId, days);
  }
  return out;
}
