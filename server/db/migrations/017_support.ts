/**
 * The support center (issue 27 item 6, docs/support-center.md): a trader's tickets, their
 * messages (the trader's, an operator's, the system's; internal notes flagged and never shown to
 * the trader) and the files attached to a message (stored like identity documents, under
 * DATA_DIR/uploads/support/<user id>/<random>). The assignee and an operator author are operator
 * ids (migration 016's operators), kept without a foreign key so the support tables stand on
 * their own; an operator is disabled, never deleted.
 */
import { sql, type Kysely } from 'kysely';
import { autoId, idType, type SqlDialect } from './dialect';

export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await db.schema
    .createTable('support_tickets')
    .addColumn('id', idType(dialect), autoId(dialect))
    .addColumn('user_id', idType(dialect), (c) => c.notNull().references('users.id'))
    .addColumn('category', 'text', (c) =>
      c.notNull().check(sql`category in ('deposit', 'withdrawal', 'verification', 'trading', 'account', 'technical', 'other')`),
    )
    .addColumn('subject', 'text', (c) => c.notNull().check(sql`length(subject) between 1 and 120`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('open', 'awaiting_user', 'awaiting_support', 'resolved', 'closed')`))
    .addColumn('assignee_id', idType(dialect))
    .addColumn('order_id', idType(dialect))
    .addColumn('transaction_id', idType(dialect))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('first_response_at', 'bigint')
    /** The last operator answer or status change the trader should see. */
    .addColumn('support_activity_at', 'bigint')
    /** When the trader last read the thread. */
    .addColumn('user_read_at', 'bigint')
    .execute();
  await db.schema.createIndex('support_tickets_user').on('support_tickets').columns(['user_id', 'updated_at']).execute();
  await db.schema.createIndex('support_tickets_status').on('support_tickets').columns(['status', 'updated_at']).execute();

  await db.schema
    .createTable('support_messages')
    .addColumn('id', idType(dialect), autoId(dialect))
    .addColumn('ticket_id', idType(dialect), (c) => c.notNull().references('support_tickets.id'))
    .addColumn('author', 'text', (c) => c.notNull().check(sql`author in ('user', 'operator', 'system')`))
    .addColumn('operator_id', idType(dialect))
    .addColumn('author_name', 'text')
    .addColumn('body', 'text', (c) => c.notNull().check(sql`length(body) <= 5000`))
    .addColumn('internal', 'integer', (c) => c.notNull().defaultTo(0).check(sql`internal in (0, 1)`))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('support_messages_ticket').on('support_messages').columns(['ticket_id', 'id']).execute();

  await db.schema
    .createTable('support_attachments')
    .addColumn('id', idType(dialect), autoId(dialect))
    .addColumn('ticket_id', idType(dialect), (c) => c.notNull().references('support_tickets.id'))
    .addColumn('message_id', idType(dialect), (c) => c.notNull().references('support_messages.id'))
    .addColumn('user_id', idType(dialect), (c) => c.notNull().references('users.id'))
    .addColumn('original_name', 'text', (c) => c.notNull())
    .addColumn('storage_name', 'text', (c) => c.notNull().unique())
    .addColumn('size', 'bigint', (c) => c.notNull().check(sql`size > 0`))
    .addColumn('mime', 'text', (c) => c.notNull().check(sql`mime in ('image/jpeg', 'image/png', 'image/webp', 'application/pdf')`))
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('support_attachments_message').on('support_attachments').columns(['message_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('support_attachments').execute();
  await db.schema.dropTable('support_messages').execute();
  await db.schema.dropTable('support_tickets').execute();
}
