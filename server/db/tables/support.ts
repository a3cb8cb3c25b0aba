/** The support center (migration 017): tickets, their messages and the files attached to messages. */
import type { Generated } from 'kysely';

export interface SupportTicketsTable {
  id: Generated<number>;
  user_id: number;
  /** contract/support.ts TICKET_CATEGORIES */
  category: string;
  subject: string;
  /** open | awaiting_user | awaiting_support | resolved | closed */
  status: string;
  /** The operator who handles it (operators.id), or null. */
  assignee_id: number | null;
  order_id: number | null;
  transaction_id: number | null;
  created_at: number;
  updated_at: number;
  /** The first operator answer that is not an internal note. */
  first_response_at: number | null;
  /** The last operator answer or status change the trader sees (unread when after user_read_at). */
  support_activity_at: number | null;
  user_read_at: number | null;
}

export interface SupportMessagesTable {
  id: Generated<number>;
  ticket_id: number;
  /** user | operator | system */
  author: string;
  operator_id: number | null;
  /** The operator's name as shown when written. */
  author_name: string | null;
  body: string;
  /** 1: an internal note, operators only. */
  internal: Generated<number>;
  created_at: number;
}

export interface SupportAttachmentsTable {
  id: Generated<number>;
  ticket_id: number;
  message_id: number;
  user_id: number;
  original_name: string;
  storage_name: string;
  size: number;
  mime: string;
  sha256: string;
  created_at: number;
}

export interface SupportTables {
  support_tickets: SupportTicketsTable;
  support_messages: SupportMessagesTable;
  support_attachments: SupportAttachmentsTable;
}
