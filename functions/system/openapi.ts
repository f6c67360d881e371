import { endpoint } from '../http/endpoint.ts';
import { openApiRoute } from '../contracts/system.ts';
import { openApiDocument } from '../openapi/document.ts';

export const handler = endpoint(openApiRoute, async () => ({ status: 200, body: await openApiDocument() }));
