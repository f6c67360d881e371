import { connectedViews } from '../../domain/channel-manager/receive-changes.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { channexTestConnectionRoute } from '../contracts/channel-manager.ts';
import { endpoint } from '../http/endpoint.ts';

/** "Test Connection endpoint": `{"success": true}` for a listing of ours connected to Channex; any other is an unknown hotel. */
export const handler = endpoint(channexTestConnectionRoute, async ({ query, services }) => {
  const views = await connectedViews({ reader: services.reader, inbox: services.channexInbox }, [query.hotel_code]);
  if (!views.has(query.hotel_code)) throw new NotFoundError('Listing');
  return { status: 200, body: { success: true } };
});
