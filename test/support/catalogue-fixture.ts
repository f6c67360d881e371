import { TEST_OPERATOR } from './audit-origin.ts';
import { importWorld } from '../../domain/world/import-world.ts';
import type { WorldInput } from '../../domain/world/world-schema.ts';
import { adminDeps } from '../../infra/container.ts';
import { newPartner, testServices, uniqueId, type PartnerFixture } from './stack.ts';
import { fixtureWorld, type CatalogueWorldIds } from './catalogue-world.ts';

export { FIXTURE_FROM, FIXTURE_TO, fixtureWorld } from './catalogue-world.ts';

export interface CatalogueFixture extends CatalogueWorldIds {
  readonly partnerA: PartnerFixture;
  readonly partnerB: PartnerFixture;
  readonly world: WorldInput;
}

/** `channex`: the fixture listings connected to Channex (world file `simulator.channelManager: channex`); none by default. */
export async function seedCatalogue(opts: { channex?: readonly ('both' | 'onlyA' | 'onlyB')[] } = {}): Promise<CatalogueFixture> {
  const suffix = uniqueId('c').slice(2);
  const { ids, ...fixture } = fixtureWorld(suffix);
  const connected = new Set((opts.channex ?? []).map((k) => ids[k]));
  const world = {
    ...fixture,
    catalogue: {
      ...fixture.catalogue,
      listings: fixture.catalogue!.listings!.map((l) =>
        connected.has(l.id) ? { ...l, simulator: { mode: 'CONFIRM_IMMEDIATELY' as const, channelManager: 'channex' as const } } : l,
      ),
    },
  };
  const svc = testServices();
  await importWorld({ ...adminDeps(svc, TEST_OPERATOR), catalogue: svc.catalogue }, world, { allowPlaintextKeys: true });
  const [partnerA, partnerB] = await Promise.all([newPartner({ channelId: ids.channelA }), newPartner({ channelId: ids.channelB })]);
  return { ...ids, partnerA, partnerB, world };
}
