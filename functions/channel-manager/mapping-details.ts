import { mappingDetails } from '../../domain/channel-manager/channex.ts';
import { connectedViews } from '../../domain/channel-manager/receive-changes.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { channexMappingDetailsRoute } from '../contracts/channel-manager.ts';
import { endpoint } from '../http/endpoint.ts';

/** "Mapping details endpoint": the connected listing's properties as room types, their meal plans as rate plans. */
export const handler = endpoint(channexMappingDetailsRoute, async ({ query, services }) => {
  const view = (await connectedViews({ reader: services.reader, inbox: services.channexInbox }, [query.hotel_code])).get(query.hotel_code);
  if (!view) throw new NotFoundError('Listing');
  return { status: 200, body: mappingDetails(view) };
});
