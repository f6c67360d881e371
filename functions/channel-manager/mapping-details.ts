import { mappingDetails } from '../../domain/channel-manager/channex.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { channexMappingDetailsRoute } from '../contracts/channel-manager.ts';
import { endpoint } from '../http/endpoint.ts';

/** "Mapping details endpoint": the listing's properties as room types, their meal plans as rate plans. */
export const handler = endpoint(channexMappingDetailsRoute, async ({ query, services }) => {
  const [view] = await services.reader.listingViews([query.hotel_code]);
  if (!view) throw new NotFoundError('Listing');
  return { status: 200, body: mappingDetails(view) };
});
