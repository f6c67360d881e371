import { eachDate, weekdayOf } from '../catalogue/calendar.ts';
import type { CatalogueContent } from '../catalogue/catalogue-diff.ts';
import { ratePlansContent, type DayData, type DayInventory, type MealPlan } from '../catalogue/day.ts';
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
  const { inventory: invRanges, rates: rateRanges } = doc.catalogue;
  const calendar = calendarOf([...invRanges, ...rateRanges]);
  const inventory = new Map<string, Map<string, DayInventory>>();
  const rates = new Map<string, Map<string, MutableRates>>();

  for (const r of invRanges) {
    let days = inventory.get(r.propertyId);
    if (!days) inventory.set(r.propertyId, (days = new Map()));
    const value: DayInventory = {
      quantity: r.quantity,
      minimumStay: r.minimumStay,
      maximumStay: r.maximumStay,
      stopSell: r.stopSell,
      ...(r.closedToArrival ? { closedToArrival: true } : {}),
      ...(r.closedToDeparture ? { closedToDeparture: true } : {}),
      ...(r.minimumStayArrival !== undefined ? { minimumStayArrival: r.minimumStayArrival } : {}),
      ...(r.ratePlans && ratePlansContent(r.ratePlans) ? { ratePlans: r.ratePlans } : {}),
    };
    calendar.each(r, (date) => days.set(date, value));
  }
  for (const r of rateRanges) {
    let days = rates.get(r.propertyId);
    if (!days) rates.set(r.propertyId, (days = new Map()));
    calendar.each(r, (date) => {
      let day = days.get(date);
      if (!day) days.set(date, (day = {}));
      Object.assign((day[r.mealPlan] ??= {}), r.adults);
    });
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

interface DateRange {
  readonly from: string;
  readonly to: string;
  readonly daysOfWeek?: readonly string[] | undefined;
}

/**
 * Every date the ranges span, with its weekday, computed once: a demo world expands
 * about half a million range-days, and date arithmetic per range-day dominated the import.
 */
function calendarOf(ranges: readonly DateRange[]) {
  const dates: string[] = [];
  const weekdays: string[] = [];
  const index = new Map<string, number>();
  if (ranges.length) {
    const first = ranges.reduce((m, r) => (r.from < m ? r.from : m), ranges[0]!.from);
    const last = ranges.reduce((m, r) => (r.to > m ? r.to : m), ranges[0]!.to);
    for (const date of eachDate(first, last)) {
      index.set(date, dates.length);
      dates.push(date);
      weekdays.push(weekdayOf(date));
    }
  }
  return {
    each(r: DateRange, visit: (date: string) => void): void {
      const end = index.get(r.to)!;
      for (let i = index.get(r.from)!; i <= end; i++) if (!r.daysOfWeek || r.daysOfWeek.includes(weekdays[i]!)) visit(dates[i]!);
    },
  };
}
