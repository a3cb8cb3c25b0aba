/**
 * Identity documents (spec section 3, Document). An upload is one document of a type with 1-5
 * files of up to 10 MB each. Every file is judged by its bytes: JPEG, PNG and WebP images are
 * decoded and re-encoded in the same format (EXIF orientation applied, every metadata chunk
 * dropped); a PDF is kept as sent but must be complete (%PDF- ... %%EOF), not encrypted and
 * free of active content (scripts, automatic actions, attached files, forms: pdf-inspect.ts). Files live under DATA_DIR/uploads/documents/<user id>/<random>; the user's file
 * name is only shown (sanitised), never used as a path.
 *
 * Lifecycle: uploaded (files stored and recorded, waiting for an operator) -> pending (an
 * operator took it under review: `npm run admin -- documents review <id>`) -> approved or
 * rejected (`documents approve|reject`, from uploaded or pending). The upload and each status
 * change record a `document.status` event, which the socket pushes to the owner. The owner may
 * delete a document until it is approved.
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { Selectable } from 'kysely';
import type { Trx } from '../../db';
import type { DocumentFilesTable, DocumentsTable } from '../../db/tables/profile';
import {
  DOCUMENTS_PER_USER_MAX,
  DOCUMENT_MAX_FILES,
  ProfileText,
  type Document,
  type DocumentMime,
  type DocumentStatus,
  type DocumentType,
} from '../../../contract/profile';
import { Conflict, invalid, notFound } from '../errors';
import { recordEvent } from '../events';
import { toUnix, type ProfileDeps } from './deps';
import { EXTENSION, sniffType } from './file-sniff';
import type { PdfProblem } from './pdf-inspect';
import { checkPdf } from './pdf-checker';
import { documentPath, randomFileName, removeFiles, userDocumentsDir, writeFileAtomic } from './storage';

export type DocumentRow = Selectable<DocumentsTable>;
export type DocumentFileRow = Selectable<DocumentFilesTable>;

export interface UploadedFile {
  /** The name the browser sent (only displayed, after sanitising). */
  filename: string;
  data: Buffer;
}

const MAX_INPUT_PIXELS = 100_000_000;
const NAME_MAX = 100;

/** A file's display name: no path, no control or odd characters, at most 100 characters, the extension of its real type. */
export function sanitizeFileName(raw: string, mime: DocumentMime): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  const ext = EXTENSION[mime];
  let stem = base
    .normalize('NFC')
    .replace(/\.[^.]*$/, '')
    .replace(/[^\p{L}\p{N} ._()-]+/gu, '_')
    .replace(/\s+/g, ' ')
    .replace(/_+/g, '_')
    .replace(/^[ ._-]+|[ ._-]+$/g, '');
  if (stem === '') stem = 'document';
  stem = [...stem].slice(0, NAME_MAX - ext.length - 1).join('');
  return `${stem}.${ext}`;
}

export interface PreparedFile {
  name: string;
  mime: DocumentMime;
  data: Buffer;
}

/** Why a PDF is refused, as the uploader reads it. */
const PDF_REFUSAL: Record<PdfProblem, string> = {
  incomplete: ProfileText.unsupportedFileType,
  encrypted: ProfileText.pdfEncrypted,
  active: ProfileText.pdfActiveContent,
  unreadable: ProfileText.pdfUnreadable,
  html: ProfileText.pdfHtml,
};

/** Check one upload by content and make the bytes that will be stored. */
export async function prepareDocumentFile(file: UploadedFile): Promise<PreparedFile> {
  const type = sniffType(file.data);
  if (type === 'application/pdf') {
    const verdict = await checkPdf(file.data);
    if (!verdict.ok) throw invalid(PDF_REFUSAL[verdict.problem]);
    return { name: sanitizeFileName(file.filename, type), mime: type, data: file.data };
  }
  if (type !== 'image/jpeg' && type !== 'image/png' && type !== 'image/webp') throw invalid(ProfileText.unsupportedFileType);
  let data: Buffer;
  try {
    const image = sharp(file.data, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).autoOrient();
    data =
      type === 'image/jpeg'
        ? await image.jpeg({ quality: 90, mozjpeg: true }).toBuffer()
        : type === 'image/png'
          ? await image.png({ compressionLevel: 9 }).toBuffer()
          : await image.webp({ quality: 90 }).toBuffer();
  } catch {
    throw invalid(ProfileText.unreadableImage);
  }
  return { name: sanitizeFileName(file.filename, type), mime: type, data };
}

export async function uploadDocument(deps: ProfileDeps, userId: number, type: DocumentType, files: UploadedFile[]): Promise<Document> {
  if (files.length === 0) throw invalid(ProfileText.filesRequired);
  if (files.length > DOCUMENT_MAX_FILES) throw invalid(ProfileText.tooManyFiles);
  // All checks and re-encoding first: a refused file leaves nothing behind.
  const prepared: PreparedFile[] = [];
  for (const f of files) prepared.push(await prepareDocumentFile(f));

  const written: string[] = [];
  const stored: (PreparedFile & { storage_name: string; sha256: string })[] = [];
  try {
    for (const p of prepared) {
      const storage_name = randomFileName();
      const target = documentPath(deps.dataDir, userId, storage_name)!;
      await writeFileAtomic(target, p.data);
      written.push(target);
      stored.push({ ...p, storage_name, sha256: crypto.createHash('sha256').update(p.data).digest('hex') });
    }
    const now = deps.now();
    const id = await deps.tx(async (trx) => {
      const count = await trx
        .selectFrom('documents')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (Number(count?.n ?? 0) >= DOCUMENTS_PER_USER_MAX) throw invalid(ProfileText.tooManyDocuments);
      const doc = await trx
        .insertInto('documents')
        .values({ user_id: userId, type, status: 'uploaded', rejection_reason: null, reviewed_at: null, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const s of stored) {
        await trx
          .insertInto('document_files')
          .values({
            document_id: doc.id,
            user_id: userId,
            original_name: s.name,
            storage_name: s.storage_name,
            size: s.data.length,
            mime: s.mime,
            sha256: s.sha256,
            created_at: now,
          })
          .execute();
      }
      // Every file is stored and recorded: the document waits, as uploaded, for an operator.
      await recordEvent(trx, 'document.status', userId, { document_id: doc.id, status: 'uploaded' }, now);
      return doc.id;
    });
    return (await getDocument(deps, userId, id))!;
  } catch (err) {
    await removeFiles(written, deps.log);
    throw err;
  }
}

async function setStatus(trx: Trx, id: number, userId: number, status: DocumentStatus, reason: string | null, now: number): Promise<void> {
  await trx
    .updateTable('documents')
    .set({ status, rejection_reason: reason, updated_at: now, ...(status === 'approved' || status === 'rejected' ? { reviewed_at: now } : {}) })
    .where('id', '=', id)
    .execute();
  await recordEvent(trx, 'document.status', userId, { document_id: id, status }, now);
}

function toWire(row: DocumentRow, files: DocumentFileRow[]): Document {
  return {
    id: row.id,
    type: row.type as DocumentType,
    status: row.status as DocumentStatus,
    files: files.map((f) => ({ id: f.id, name: f.original_name, size: Number(f.size), mime: f.mime as DocumentMime })),
    created_at: toUnix(row.created_at),
    updated_at: toUnix(row.updated_at),
    rejection_reason: row.rejection_reason,
  };
}

async function filesOf(db: Trx, ids: number[]): Promise<Map<number, DocumentFileRow[]>> {
  const out = new Map<number, DocumentFileRow[]>();
  if (ids.length === 0) return out;
  const rows = await db.selectFrom('document_files').selectAll().where('document_id', 'in', ids).orderBy('id').execute();
  for (const r of rows) out.set(r.document_id, [...(out.get(r.document_id) ?? []), r]);
  return out;
}

/** The user's documents, newest first. */
export async function listDocuments(deps: Pick<ProfileDeps, 'db'>, userId: number): Promise<Document[]> {
  const rows = await deps.db.selectFrom('documents').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').execute();
  const files = await filesOf(
    deps.db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toWire(r, files.get(r.id) ?? []));
}

export async function getDocument(deps: Pick<ProfileDeps, 'db'>, userId: number, id: number): Promise<Document | null> {
  const row = await deps.db.selectFrom('documents').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (!row) return null;
  const files = await filesOf(deps.db, [id]);
  return toWire(row, files.get(id) ?? []);
}

/** A document's rejection reason for the status push (null when none, or when the document is gone). */
export async function rejectionReasonOf(deps: Pick<ProfileDeps, 'db'>, id: number): Promise<string | null> {
  const row = await deps.db.selectFrom('documents').select('rejection_reason').where('id', '=', id).executeTakeFirst();
  return row?.rejection_reason ?? null;
}

/** One stored file of the owner's document, for download. Anyone else's is "not found". */
export async function readDocumentFile(
  deps: Pick<ProfileDeps, 'db' | 'dataDir'>,
  userId: number,
  documentId: number,
  fileId: number,
): Promise<{ name: string; mime: DocumentMime; data: Buffer }> {
  const row = await deps.db
    .selectFrom('document_files')
    .selectAll()
    .where('id', '=', fileId)
    .where('document_id', '=', documentId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw notFound(ProfileText.documentNotFound);
  const p = documentPath(deps.dataDir, userId, row.storage_name);
  if (!p) throw notFound(ProfileText.documentNotFound);
  try {
    return { name: row.original_name, mime: row.mime as DocumentMime, data: await fs.readFile(p) };
  } catch {
    throw notFound(ProfileText.documentNotFound);
  }
}

/** Delete the owner's document and its files, unless it is approved. */
export async function deleteDocument(deps: ProfileDeps, userId: number, id: number): Promise<void> {
  const storageNames = await deps.tx(async (trx) => {
    const row = await trx.selectFrom('documents').select(['id', 'status']).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    if (!row) throw notFound(ProfileText.documentNotFound);
    if (row.status === 'approved') throw invalid(ProfileText.documentApproved);
    const files = await trx.selectFrom('document_files').select('storage_name').where('document_id', '=', id).execute();
    await trx.deleteFrom('document_files').where('document_id', '=', id).execute();
    await trx.deleteFrom('documents').where('id', '=', id).execute();
    return files.map((f) => f.storage_name);
  });
  await removeFiles(
    storageNames.map((n) => documentPath(deps.dataDir, userId, n)),
    deps.log,
  );
}

// ---- operator review ------------------------------------------------------------------------

export interface OperatorDocument extends Document {
  user_id: number;
  username: string;
  /** Absolute paths of the stored files, for the reviewer to open. */
  paths: string[];
}

export async function listDocumentsForOperator(
  deps: Pick<ProfileDeps, 'db' | 'dataDir'>,
  filter: { id?: number; status?: DocumentStatus; userId?: number; limit: number },
): Promise<OperatorDocument[]> {
  let q = deps.db
    .selectFrom('documents as d')
    .innerJoin('users as u', 'u.id', 'd.user_id')
    .selectAll('d')
    .select('u.username');
  if (filter.id !== undefined) q = q.where('d.id', '=', filter.id);
  if (filter.status) q = q.where('d.status', '=', filter.status);
  if (filter.userId !== undefined) q = q.where('d.user_id', '=', filter.userId);
  const rows = await q.orderBy('d.id', 'asc').limit(filter.limit).execute();
  const files = await filesOf(
    deps.db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => {
    const own = files.get(r.id) ?? [];
    return {
      ...toWire(r, own),
      user_id: r.user_id,
      username: r.username,
      paths: own.map((f) => documentPath(deps.dataDir, r.user_id, f.storage_name) ?? path.join(userDocumentsDir(deps.dataDir, r.user_id), '(invalid name)')),
    };
  });
}

export type ReviewOutcome = { changed: boolean; document: OperatorDocument };

export type ReviewDecision = { status: 'pending' } | { status: 'approved' } | { status: 'rejected'; reason: string };

/** The statuses each operator step may start from. */
const REVIEW_FROM: Record<ReviewDecision['status'], readonly DocumentStatus[]> = {
  pending: ['uploaded'],
  approved: ['uploaded', 'pending'],
  rejected: ['uploaded', 'pending'],
};

/**
 * An operator's step: take an uploaded document under review (pending), or approve or reject
 * an uploaded or pending one. Repeating the same step is a no-op; going back (a decided
 * document under review again, or a decision reversed) is refused with 409.
 */
export async function reviewDocument(
  deps: Pick<ProfileDeps, 'db' | 'tx' | 'now' | 'dataDir'>,
  id: number,
  decision: ReviewDecision,
  /** Runs inside the transaction after a change (the console's audit row). */
  hook?: (trx: Trx, before: string) => Promise<void>,
): Promise<ReviewOutcome> {
  const now = deps.now();
  const changed = await deps.tx(async (trx) => {
    const row = await trx.selectFrom('documents').select(['id', 'user_id', 'status']).where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound(ProfileText.documentNotFound);
    if (row.status === decision.status) return false;
    if (!REVIEW_FROM[decision.status].includes(row.status as DocumentStatus)) {
      throw new Conflict(`Document #${id} is already ${row.status}`);
    }
    await setStatus(trx, id, row.user_id, decision.status, decision.status === 'rejected' ? decision.reason : null, now);
    if (hook) await hook(trx, row.status);
    return true;
  });
  const [document] = await listDocumentsForOperator(deps, { id, limit: 1 });
  return { changed, document };
}
