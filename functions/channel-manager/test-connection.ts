import { NotFoundError } from '../../domain/errors.ts';
import { channexTestConnectionRoute } from '../contracts/channel-manager.ts';
import { endpoint } from '../http/endpoint.ts';

/** "Test Connection endpoint": `{"success": true}` for a listing of ours. */
export const handler = endpoint(channexTestConnectionRoute, async ({ query, services }) => {
  const [view] = await services.reader.listingViews([query.hotel_code]);
  if (!view) throw new NotFoundError('Listing');
  return { status: 200, body: { success: true } };
});
