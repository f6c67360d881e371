/**
 * The channel manager area's wiring: Channex's changes endpoint and its apply step (docs/channel-manager.md).
 * Handlers import this module and `core.ts`, never another area's (docs/decisions/platform.md, "Composition per area").
 */
import type { ApplyDeps, ReceiveDeps } from '../../domain/channel-manager/receive-changes.ts';
import type { Services } from './core.ts';
import { syncDeps } from './catalogue.ts';

/** What Channex's changes endpoint and its apply step need (docs/channel-manager.md). */
export function channexDeps(svc: Services): ApplyDeps & Omit<ReceiveDeps, 'sha256'> {
  return { ...syncDeps(svc), reader: svc.reader, inbox: svc.channexInbox, documents: svc.documents, queue: svc.channexQueue };
}
