import { DomainError } from '../../domain/errors.ts';

/** The answer for a path no operation serves; a sandbox-only route gives the same off sandbox stages. */
export const routeNotFound = (): DomainError => new DomainError('ROUTE_NOT_FOUND', 'No operation is served at this path; /openapi.json lists them.');
