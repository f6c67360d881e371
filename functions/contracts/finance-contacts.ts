import * as v from 'valibot';
import { MAX_FINANCE_CONTACTS, OPTIONAL_DOCUMENTS, STATUTORY_DOCUMENTS } from '../../domain/mail/finance-contacts.ts';
import { defineRoute } from '../http/route.ts';
import { AUTHENTICATED_ERRORS, DateTimeSchema, ErrorBodySchema, listOf } from './common.ts';

const TAG = ['Finance contacts'];
const NOT_FOUND = { 404: { description: "No such finance contact in your agent group (another group's reads the same).", schema: ErrorBodySchema } };

const EmailSchema = v.pipe(v.string(), v.maxLength(254), v.description('One e-mail address; stored lower-cased, one contact per address.'));
const NameSchema = v.nullable(v.pipe(v.string(), v.maxLength(100), v.description('How to address the contact in e-mails; 1–100 characters, or null.')));
const DocumentsSchema = v.pipe(
  v.array(v.picklist(OPTIONAL_DOCUMENTS)),
  v.description(
    `The optional documents the contact receives by e-mail: ${OPTIONAL_DOCUMENTS.join(', ')}. Every contact receives ${STATUTORY_DOCUMENTS.join(' and ')} (statutory documents, no opt-out). An empty list opts out of all optional ones, reminders included.`,
  ),
);

export const FinanceContactSchema = v.object({
  id: v.pipe(v.string(), v.uuid(), v.description('The contact id.')),
  email: v.pipe(v.string(), v.description('The e-mail address, lower-cased; one contact per address.')),
  name: v.pipe(v.nullable(v.string()), v.description('How to address the contact in e-mails; null without.')),
  documents: v.pipe(
    v.array(v.picklist([...STATUTORY_DOCUMENTS, ...OPTIONAL_DOCUMENTS])),
    v.description('Every document the contact receives, statutory ones first.'),
  ),
  bounced: v.pipe(v.boolean(), v.description('Mail to the address bounced or drew a complaint: nothing is sent to it until the address is changed.')),
  createdAt: v.pipe(DateTimeSchema, v.description('When the contact was added.')),
  updatedAt: v.pipe(DateTimeSchema, v.description('When it last changed.')),
});

const ContactIdParamsSchema = v.strictObject({
  contactId: v.pipe(v.string(), v.uuid('contactId must be a finance contact id (a UUID).'), v.description('The contact id.')),
});

export const listFinanceContactsRoute = defineRoute({
  operationId: 'listFinanceContacts',
  method: 'GET',
  path: '/v1/finance-contacts',
  auth: 'v1',
  summary: "Your agent group's finance contacts",
  description:
    'The people who receive your invoices, credit notes and, as each chose, receipts, payment reminders and monthly statements by e-mail. Oldest first.',
  tags: TAG,
  responses: {
    200: { description: 'Oldest first.', schema: listOf(FinanceContactSchema, 'Every contact of your group, oldest first.') },
    ...AUTHENTICATED_ERRORS,
  },
});

export const createFinanceContactRoute = defineRoute({
  operationId: 'createFinanceContact',
  method: 'POST',
  idempotencyKey: true,
  path: '/v1/finance-contacts',
  auth: 'v1',
  summary: 'Add a finance contact',
  description: `At most ${MAX_FINANCE_CONTACTS} per group. Without documents the contact receives every optional document.`,
  tags: TAG,
  body: v.strictObject({ email: EmailSchema, name: v.optional(NameSchema), documents: v.optional(DocumentsSchema) }),
  responses: {
    201: { description: 'Added.', schema: FinanceContactSchema },
    409: { description: `The address is already a contact of the group, or the group has ${MAX_FINANCE_CONTACTS} contacts.`, schema: ErrorBodySchema },
    ...AUTHENTICATED_ERRORS,
  },
});

export const updateFinanceContactRoute = defineRoute({
  operationId: 'updateFinanceContact',
  method: 'PATCH',
  path: '/v1/finance-contacts/{contactId}',
  auth: 'v1',
  summary: 'Change a finance contact (address, name, optional documents)',
  description: 'Omitted fields keep their value. Opting out of reminders is `documents` without REMINDERS. A new address clears a bounce.',
  tags: TAG,
  params: ContactIdParamsSchema,
  body: v.strictObject({ email: v.optional(EmailSchema), name: v.optional(NameSchema), documents: v.optional(DocumentsSchema) }),
  responses: {
    200: { description: 'The changed contact.', schema: FinanceContactSchema },
    ...NOT_FOUND,
    409: { description: 'The new address is already another contact of the group.', schema: ErrorBodySchema },
    ...AUTHENTICATED_ERRORS,
  },
});

export const deleteFinanceContactRoute = defineRoute({
  operationId: 'deleteFinanceContact',
  method: 'DELETE',
  path: '/v1/finance-contacts/{contactId}',
  auth: 'v1',
  summary: 'Remove a finance contact',
  tags: TAG,
  params: ContactIdParamsSchema,
  responses: { 204: { description: 'Removed.' }, ...NOT_FOUND, ...AUTHENTICATED_ERRORS },
});
