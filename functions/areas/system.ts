import { areaRouter } from '../http/area-router.ts';
import { handler as apiPing } from '../system/api-ping.ts';
import { handler as docs } from '../system/docs.ts';
import { handler as fallback } from '../system/fallback.ts';
import { handler as openApi, partnerHandler as partnerOpenApi } from '../system/openapi.ts';
import { collectionHandler, environmentHandler } from '../system/postman.ts';
import { handler as v1Ping } from '../system/v1-ping.ts';

/** The pings, the reference (OpenAPI, rendered docs, Postman files) and `$default`: every path no other route matches. */
export const handler = areaRouter([apiPing, v1Ping, openApi, partnerOpenApi, docs, collectionHandler, environmentHandler], fallback, { $default: fallback });
