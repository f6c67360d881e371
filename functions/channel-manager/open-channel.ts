import { handler as fallback } from '../system/fallback.ts';
import type { HttpContext, HttpEvent, HttpResult } from '../http/types.ts';
import { handler as changesHandler } from './changes.ts';
import { handler as mappingDetailsHandler } from './mapping-details.ts';
import { handler as testConnectionHandler } from './test-connection.ts';

/**
 * Channex calls `<endpoint>/test_connection/`, `mapping_details/` and `changes/` with the
 * trailing slash ("API Endpoints"), and API Gateway HTTP APIs refuse a route key ending in
 * `/`. So the three are served through the greedy route keys `GET` and `POST
 * /channel-manager/channex/{proxy+}`: a greedy variable "catches all child resources of a
 * route" ("Create routes for HTTP APIs"), with or without the slash. The endpoint's name is
 * the variable without one trailing slash; any other name is answered as the $default route
 * answers it (405 with Allow for a known path under another method, else 404 ROUTE_NOT_FOUND).
 */
export const endpointName = (event: HttpEvent): string => (event.pathParameters?.proxy ?? '').replace(/\/$/, '');

type Handler = (event: HttpEvent, context: HttpContext) => Promise<HttpResult>;

const dispatch =
  (byName: Readonly<Record<string, Handler>>): Handler =>
  (event, context) =>
    (byName[endpointName(event)] ?? fallback)(event, context);

/** `GET /channel-manager/channex/{proxy+}`: the two reads, which need only the catalogue. */
export const reads = dispatch({ test_connection: testConnectionHandler, mapping_details: mappingDetailsHandler });

/** `POST /channel-manager/channex/{proxy+}`: the changes endpoint. */
export const changes = dispatch({ changes: changesHandler });
