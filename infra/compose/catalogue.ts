/**
 * The catalogue area's wiring: catalogue syncs (the sync worker, the admin tool) and the catalogue
 * function's change feed, read with the delivery engine's dependencies.
 * Handlers import this module and `core.ts`, never another area's (docs/decisions/platform.md, "Composition per area").
 */
import { systemOrigin } from '../../domain/audit/audit-event.ts';
import { publishCatalogueEvents } from '../../domain/deliveries/publish-catalogue-events.ts';
import type { SyncDeps } from '../../domain/sync/sync-catalogue.ts';
import { adminDeps, type Services } from './core.ts';
import { deliveryDeps } from './deliveries.ts';

export { deliveryDeps };

/** What a catalogue sync needs: the import's dependencies plus the reader and the delivery fan-out. */
export function syncDeps(svc: Services): SyncDeps {
  const deliveries = deliveryDeps(svc);
  return {
    // A sync imports what the channel manager says; its writes are the system's, recorded against the job.
    ...adminDeps(svc, systemOrigin('catalogue-sync', svc.ids.uuid())),
    catalogue: svc.catalogue,
    reader: svc.reader,
    publish: (events) => publishCatalogueEvents(deliveries, events),
  };
}
