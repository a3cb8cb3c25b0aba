/**
 * The support center (issue 27 item 6; docs/support-center.md): a trader's tickets and the
 * operator's support inbox. Messages, subjects and file names are plain text: every client shows
 * them as text, never as markup.
 *
 * Trader (bearer token):
 *   GET    /api/v2/support/tickets                      my tickets, newest activity first -> {tickets, unread}
 *   POST   /api/v2/support/tickets                      {category, subject, message, order_id?, transaction_id?} -> 201 {ticket, messages}
 *   GET    /api/v2/support/tickets/:id                  {ticket, messages} (internal notes never included); marks it read
 *   POST   /api/v2/support/tickets/:id/messages         {body} -> 201 {ticket, message}
 *   POST   /api/v2/support/tickets/:id/attachments      multipart 1-5 `files` (+ optional `body`) -> 201 {ticket, message}
 *   POST   /api/v2/support/tickets/:id/close            {} -> {ticket}
 *   GET    /api/v2/support/tickets/:id/attachments/:fileId   the file (attachment, nosniff)
 *
 * Operator (console cookie, roles support and admin):
 *   GET    /api/console/support/tickets                 ?status&assignee&category&sort&page&limit -> {tickets, pagination}
 *   GET    /api/console/support/tickets/:id             {ticket, messages (notes too), context}
 *   POST   /api/console/support/tickets/:id/assign      {operator_id | null} -> {ticket}
 *   POST   /api/console/support/tickets/:id/messages    {body, internal} -> 201 {ticket, message}
 *   POST   /api/console/support/tickets/:id/status      {status} -> {ticket}
 *   GET    /api/console/support/tickets/:id/attachments/:fileId
 *
 * Socket: `support_update` {ticket, message} to the trader's room when an operator replies or
 * changes the status (never for an internal note).
 */
import * as v from 'valibot';
import { DOCUMENT_ACCEPTED, DOCUMENT_MAX_BYTES, DOCUMENT_MAX_FILES, DOCUMENT_MAX_MB, ProfileText } from './profile';

export const TICKET_CATEGORIES = ['deposit', 'withdrawal', 'verification', 'trading', 'account', 'technical', 'other'] as const;
export type TicketCategory = (typeof TICKET_CATEGORIES)[number];

export const TICKET_STATUSES = ['open', 'awaiting_user', 'awaiting_support', 'resolved', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/** Statuses an operator may set (open is only the start). */
export const OPERATOR_STATUSES = ['awaiting_user', 'awaiting_support', 'resolved', 'closed'] as const;

export const MESSAGE_AUTHORS = ['user', 'operator', 'system'] as const;
export type MessageAuthor = (typeof MESSAGE_AUTHORS)[number];

export const SUBJECT_MAX = 120;
export const MESSAGE_MAX = 5000;
/** Files per message and their size: the identity documents' rules (contract/profile.ts). */
export const ATTACHMENT_MAX_FILES = DOCUMENT_MAX_FILES;
export const ATTACHMENT_MAX_MB = DOCUMENT_MAX_MB;
export const ATTACHMENT_MAX_BYTES = DOCUMENT_MAX_BYTES;
export const ATTACHMENT_ACCEPTED = DOCUMENT_ACCEPTED;
export type AttachmentMime = (typeof ATTACHMENT_ACCEPTED)[number];
/** New tickets a trader may open per hour (beyond: 429). */
export const TICKETS_PER_HOUR = 5;
/** Tickets a trader may have not closed at once. */
export const OPEN_TICKETS_MAX = 10;
export const INBOX_PAGE_MAX = 100;
export const INBOX_PAGE_DEFAULT = 25;

/** The roles that read and answer tickets (docs/support-center.md): support, and admin. */
export const SUPPORT_ROLES = ['support'] as const;

/** The socket event a trader's sessions get when support answers or changes a ticket. */
export const SUPPORT_UPDATE_EVENT = 'support_update';

export const SupportText = {
  ticketNotFound: 'Ticket not found',
  attachmentNotFound: 'Attachment not found',
  subjectRequired: 'Subject is required',
  subjectTooLong: `Subject must be at most ${SUBJECT_MAX} characters`,
  messageRequired: 'Message is required',
  messageTooLong: `Message must be at most ${MESSAGE_MAX} characters`,
  categoryInvalid: 'Choose a category',
  statusInvalid: 'Unknown status',
  orderNotYours: 'Order not found',
  transactionNotYours: 'Transaction not found',
  ticketClosed: 'This ticket is closed',
  tooManyTickets: 'Too many new tickets, try again later',
  tooManyOpen: `At most ${OPEN_TICKETS_MAX} open tickets`,
  // The identity documents' words (the same rules, already translated by the app).
  filesRequired: ProfileText.filesRequired,
  tooManyFiles: ProfileText.tooManyFiles,
  fileTooLarge: ProfileText.fileTooLarge,
  notMultipart: ProfileText.notMultipart,
  operatorNotFound: 'Operator not found',
  unknownField: 'Unknown field',
} as const;

const text = (max: number, required: string, tooLong: string) =>
  v.pipe(v.string(required), v.trim(), v.minLength(1, required), v.maxLength(max, tooLong));

/** An optional positive id in a JSON body (a number or a numeric string; '' and null are none). */
const optionalId = (message: string) =>
  v.optional(
    v.pipe(
      v.union([v.number(), v.string(), v.null()], message),
      v.transform((x) => (x === null || x === '' ? null : Number(x))),
      v.check((x) => x === null || (Number.isSafeInteger(x) && x > 0), message),
    ),
  );

export const CreateTicketSchema = v.strictObject(
  {
    category: v.picklist(TICKET_CATEGORIES, SupportText.categoryInvalid),
    subject: text(SUBJECT_MAX, SupportText.subjectRequired, SupportText.subjectTooLong),
    message: text(MESSAGE_MAX, SupportText.messageRequired, SupportText.messageTooLong),
    order_id: optionalId(SupportText.orderNotYours),
    transaction_id: optionalId(SupportText.transactionNotYours),
  },
  SupportText.unknownField,
);
export type CreateTicketInput = v.InferInput<typeof CreateTicketSchema>;
export type CreateTicket = v.InferOutput<typeof CreateTicketSchema>;

export const ReplySchema = v.strictObject({ body: text(MESSAGE_MAX, SupportText.messageRequired, SupportText.messageTooLong) }, SupportText.unknownField);
export type ReplyInput = v.InferOutput<typeof ReplySchema>;

/** The optional text beside attachments (multipart field `body`). */
export const AttachmentFieldsSchema = v.strictObject(
  { body: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(MESSAGE_MAX, SupportText.messageTooLong)), '') },
  SupportText.unknownField,
);

export const EmptySchema = v.strictObject({}, SupportText.unknownField);

export const OperatorReplySchema = v.strictObject(
  {
    body: text(MESSAGE_MAX, SupportText.messageRequired, SupportText.messageTooLong),
    /** An internal note: operators only, never shown to the trader. */
    internal: v.optional(v.boolean('internal must be true or false'), false),
  },
  SupportText.unknownField,
);
export type OperatorReply = v.InferOutput<typeof OperatorReplySchema>;

export const AssignSchema = v.strictObject(
  { operator_id: v.nullable(v.pipe(v.number('operator_id must be a number or null'), v.integer(), v.minValue(1))) },
  SupportText.unknownField,
);

export const StatusChangeSchema = v.strictObject({ status: v.picklist(OPERATOR_STATUSES, SupportText.statusInvalid) }, SupportText.unknownField);

const queryInt = (name: string, min: number, max: number) =>
  v.pipe(
    v.string(`${name} must be a whole number`),
    v.regex(/^\d{1,9}$/, `${name} must be a whole number`),
    v.transform(Number),
    v.minValue(min, `${name} must be at least ${min}`),
    v.maxValue(max, `${name} must be at most ${max}`),
  );

export const INBOX_SORTS = ['updated_desc', 'updated_asc', 'created_desc', 'created_asc', 'waiting_desc'] as const;
export type InboxSort = (typeof INBOX_SORTS)[number];

export const InboxQuerySchema = v.strictObject(
  {
    status: v.optional(v.picklist([...TICKET_STATUSES, 'all', 'active'], SupportText.statusInvalid), 'active'),
    /** An operator id, `me`, `none` (unassigned) or `all`. */
    assignee: v.optional(v.pipe(v.string(), v.regex(/^(me|none|all|[1-9]\d{0,9})$/, 'assignee must be me, none, all or an operator id')), 'all'),
    category: v.optional(v.picklist([...TICKET_CATEGORIES, 'all'], SupportText.categoryInvalid), 'all'),
    sort: v.optional(v.picklist(INBOX_SORTS, 'Unknown sort'), 'updated_desc'),
    page: v.optional(queryInt('page', 1, 1_000_000), '1'),
    limit: v.optional(queryInt('limit', 1, INBOX_PAGE_MAX), String(INBOX_PAGE_DEFAULT)),
  },
  SupportText.unknownField,
);
export type InboxQuery = v.InferOutput<typeof InboxQuerySchema>;
export type InboxQueryInput = v.InferInput<typeof InboxQuerySchema>;

export const TicketParamsSchema = v.object({ id: v.pipe(v.string(), v.regex(/^[1-9]\d{0,15}$/, 'Id must be a positive whole number'), v.transform(Number)) });
export const AttachmentParamsSchema = v.object({
  id: v.pipe(v.string(), v.regex(/^[1-9]\d{0,15}$/, 'Id must be a positive whole number'), v.transform(Number)),
  fileId: v.pipe(v.string(), v.regex(/^[1-9]\d{0,15}$/, 'Id must be a positive whole number'), v.transform(Number)),
});

// ---- outputs ---------------------------------------------------------------------------------

export const AttachmentSchema = v.object({
  id: v.number(),
  name: v.string(),
  size: v.number(),
  mime: v.picklist(ATTACHMENT_ACCEPTED),
});
export type Attachment = v.InferOutput<typeof AttachmentSchema>;

export const TicketMessageSchema = v.object({
  id: v.number(),
  ticket_id: v.number(),
  author: v.picklist(MESSAGE_AUTHORS),
  /** The operator's display name (operator messages), else null. */
  author_name: v.nullable(v.string()),
  body: v.string(),
  /** Only ever true in the console. */
  internal: v.boolean(),
  attachments: v.array(AttachmentSchema),
  /** Milliseconds since the epoch. */
  created_at: v.number(),
});
export type TicketMessage = v.InferOutput<typeof TicketMessageSchema>;

export const TicketSchema = v.object({
  id: v.number(),
  category: v.picklist(TICKET_CATEGORIES),
  subject: v.string(),
  status: v.picklist(TICKET_STATUSES),
  order_id: v.nullable(v.number()),
  transaction_id: v.nullable(v.number()),
  /** Milliseconds since the epoch. */
  created_at: v.number(),
  updated_at: v.number(),
  /** The first operator answer (not a note), or null. */
  first_response_at: v.nullable(v.number()),
  /** Support answered after the trader last read the ticket. */
  unread: v.boolean(),
});
export type Ticket = v.InferOutput<typeof TicketSchema>;

export const TicketListSchema = v.object({ tickets: v.array(TicketSchema), unread: v.number() });
export type TicketList = v.InferOutput<typeof TicketListSchema>;

export const ThreadSchema = v.object({ ticket: TicketSchema, messages: v.array(TicketMessageSchema) });
export type Thread = v.InferOutput<typeof ThreadSchema>;

export const PostedSchema = v.object({ ticket: TicketSchema, message: TicketMessageSchema });
export type Posted = v.InferOutput<typeof PostedSchema>;

export const SupportUpdateEventSchema = v.object({ ticket: TicketSchema, message: v.nullable(TicketMessageSchema) });
export type SupportUpdateEvent = v.InferOutput<typeof SupportUpdateEventSchema>;

export const InboxTicketSchema = v.object({
  ...TicketSchema.entries,
  user_id: v.number(),
  username: v.string(),
  assignee_id: v.nullable(v.number()),
  assignee_name: v.nullable(v.string()),
  /** first_response_at - created_at in ms, or null while unanswered. */
  first_response_ms: v.nullable(v.number()),
  messages: v.number(),
});
export type InboxTicket = v.InferOutput<typeof InboxTicketSchema>;

export const InboxSchema = v.object({
  tickets: v.array(InboxTicketSchema),
  pagination: v.object({ page: v.number(), limit: v.number(), total: v.number() }),
});
export type Inbox = v.InferOutput<typeof InboxSchema>;

export const TraderContextSchema = v.object({
  user_id: v.number(),
  username: v.string(),
  email: v.string(),
  name: v.string(),
  email_verified: v.boolean(),
  two_factor_enabled: v.boolean(),
  created_at: v.number(),
  balances: v.array(v.object({ currency: v.string(), account: v.string(), amount: v.string() })),
  orders: v.array(
    v.object({ order_id: v.number(), pair: v.string(), direction: v.string(), status: v.string(), result: v.nullable(v.string()), amount: v.string(), currency: v.string(), created_at: v.number() }),
  ),
  transactions: v.array(v.object({ id: v.number(), type: v.string(), status: v.string(), amount: v.string(), currency: v.string(), created_at: v.number() })),
});
export type TraderContext = v.InferOutput<typeof TraderContextSchema>;

export const ConsoleThreadSchema = v.object({ ticket: InboxTicketSchema, messages: v.array(TicketMessageSchema), context: TraderContextSchema });
export type ConsoleThread = v.InferOutput<typeof ConsoleThreadSchema>;

export const ConsolePostedSchema = v.object({ ticket: InboxTicketSchema, message: TicketMessageSchema });
export type ConsolePosted = v.InferOutput<typeof ConsolePostedSchema>;
