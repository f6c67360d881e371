/** Listings further apart than this never form a combined group (docs/search.md). */
export const GROUP_RADIUS_METERS = 5_000;

const EARTH_RADIUS_METERS = 6_371_008.8;
const rad = (deg: number) => (deg * Math.PI) / 180;

export interface LatLng {
  readonly latitude: number;
  readonly longitude: number;
}

/** Great-circle distance in metres (haversine on the mean Earth radius). */
export function distanceMeters(a: LatLng, b: LatLng): number {
  const dLat = rad(b.latitude - a.latitude);
  const dLng = rad(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_METERS * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Bands of the proximity label, nearest first; the last band ends at GROUP_RADIUS_METERS. */
export const PROXIMITY_BANDS = [
  { upToMeters: 250, label: 'Same street' },
  { upToMeters: 1_500, label: 'Walking distance' },
  { upToMeters: GROUP_RADIUS_METERS, label: 'Short drive' },
] as const;

/** How a guest would describe the walk between the two furthest members of a group. */
export function proximityLabel(maxPairwiseMeters: number): string {
  return (PROXIMITY_BANDS.find((b) => maxPairwiseMeters <= b.upToMeters) ?? PROXIMITY_BANDS[2]).label;
}
