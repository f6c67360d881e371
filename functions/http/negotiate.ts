/**
 * Which of the media types an operation offers the request's `Accept` header prefers
 * (RFC 9110 §12.5.1): the highest quality wins, a more specific range beats `type/*` and `*\/*`
 * for the same type, and ties go to the one the operation lists first (JSON). No header, or one
 * naming none of them, gets the first.
 */
export function preferredMediaType<const T extends string>(accept: string | undefined, offered: readonly [T, ...T[]]): T {
  if (!accept) return offered[0];
  const ranges = accept.split(',').map((part) => {
    const [range = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const quality = q === undefined ? 1 : Number(q.slice(2));
    return { range: range.trim(), quality: Number.isFinite(quality) ? quality : 0 };
  });
  const qualityOf = (type: string): number => {
    const [major] = type.split('/');
    const match = ranges.find((r) => r.range === type) ?? ranges.find((r) => r.range === `${major}/*`) ?? ranges.find((r) => r.range === '*/*');
    return match?.quality ?? 0;
  };
  let best = offered[0];
  let bestQuality = qualityOf(best);
  for (const type of offered.slice(1)) {
    const q = qualityOf(type);
    if (q > bestQuality) [best, bestQuality] = [type, q];
  }
  return best;
}
