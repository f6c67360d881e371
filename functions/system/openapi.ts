import { endpoint } from '../http/endpoint.ts';
import { openApiRoute, partnerOpenApiRoute } from '../contracts/system.ts';
import { openApiDocument, partnerOpenApiDocument } from '../openapi/document.ts';

export const handler = endpoint(openApiRoute, async () => ({ status: 200, body: await openApiDocument() }));

export const partnerHandler = endpoint(partnerOpenApiRoute, async () => ({ status: 200, body: await partnerOpenApiDocument() }));
