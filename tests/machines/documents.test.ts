/**
 * Documents (documents.machine): generated paths with full coverage, then behaviour with stub
 * actors: the upload rules per type (type required, 1..5 files, 10 MB, JPEG/PNG/WebP/PDF), the
 * upload sending type and files and heading the list, deletion only of documents that are not
 * approved and only after confirming (the dialog stays on failure), status pushes applied in
 * place and an unknown document triggering a refresh.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { fromPromise, waitFor, type AnyEventObject } from 'xstate';
import { DOCUMENT_TYPE_INFO, type Document } from '../../contract/profile';
import {
  documentsMachine,
  type DeleteDocumentInput,
  type DocumentsSnapshotData,
  type DownloadDocumentFileInput,
  type UploadDocumentsInput,
} from '../../machines/documents/documents.machine';
import { mimeOf, uploadProblems } from '../../machines/documents/documents.schemas';
import { assertFullCoverage, pathCases, printCoverage, replayPath, startUnderParent, type PathModel } from './harness';

const MB = 1024 * 1024;
function upload(name: string, type: string, size = 4096): File {
  const file = new File([new Uint8Array(8)], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  // The path generator tells events and states apart by their JSON; a File's JSON is {}.
  Object.defineProperty(file, 'toJSON', { value: () => ({ name, type, size }) });
  return file;
}

function doc(id: number, status: Document['status'], type: Document['type'] = 'passport'): Document {
  return {
    id,
    type,
    status,
    files: [{ id: id * 10, name: `scan-${id}.png`, size: 4096, mime: 'image/png' }],
    created_at: 1_760_000_000 + id,
    updated_at: 1_760_000_000 + id,
    rejection_reason: null,
  };
}

const types = [...DOCUMENT_TYPE_INFO];
const loaded: DocumentsSnapshotData = { types, documents: [doc(11, 'pending'), doc(12, 'approved', 'selfie')] };
const scan = upload('scan.png', 'image/png');

const events: AnyEventObject[] = [
  { type: 'documents.retryRequested' },
  { type: 'documents.refreshRequested' },
  { type: 'documents.uploadSubmitted', docType: 'passport', files: [scan] },
  { type: 'documents.uploadSubmitted', docType: '', files: [] },
  { type: 'documents.deleteRequested', id: 11 },
  { type: 'documents.deleteRequested', id: 12 },
  { type: 'documents.deleteConfirmed' },
  { type: 'documents.deleteCancelled' },
  { type: 'documents.statusUpdated', document: { id: 11, status: 'rejected', rejection_reason: 'Blurry photo' } },
  { type: 'documents.statusUpdated', document: { id: 99, status: 'pending', rejection_reason: null } },
  { type: 'xstate.done.actor.loadDocuments', output: loaded },
  { type: 'xstate.error.actor.loadDocuments', error: {} },
  { type: 'xstate.done.actor.refreshDocuments', output: loaded },
  { type: 'xstate.error.actor.refreshDocuments', error: { message: 'Request failed' } },
  { type: 'xstate.done.actor.uploadDocuments', output: [doc(13, 'uploaded')] },
  { type: 'xstate.error.actor.uploadDocuments', error: { message: 'Unsupported file type' } },
  { type: 'xstate.done.actor.deleteDocument' },
  { type: 'xstate.error.actor.deleteDocument', error: {} },
  { type: 'documents.fileDownloadRequested', documentId: 11, fileId: 110, name: 'scan-11.png' },
  { type: 'xstate.done.actor.downloadDocumentFile' },
  { type: 'xstate.error.actor.downloadDocumentFile', error: {} },
];
const model: PathModel = {
  name: 'documents',
  machine: documentsMachine,
  events,
  simplePathEvents: [events[0], events[2], events[4], events[6], events[10], events[11], events[14], events[16]],
  simplePaths: 200,
};

describe('documents machine paths', () => {
  afterAll(printCoverage);
  it.each(pathCases(model))('%s', (_, path) => {
    replayPath(model, path);
  });
  it('reaches every state and takes every transition', () => assertFullCoverage('documents'));
});

describe('upload rules', () => {
  it('needs a known type and 1 to 5 accepted files of at most 10 MB each', () => {
    expect(uploadProblems('passport', [scan], types)).toEqual([]);
    expect(uploadProblems('', [scan], types)).toEqual([{ field: 'type', message: 'profile.documents.type_required' }]);
    expect(uploadProblems('visa', [], types)).toEqual([
      { field: 'type', message: 'profile.documents.type_required' },
      { field: 'files', message: 'profile.documents.files_required' },
    ]);
    expect(uploadProblems('passport', [], types)).toEqual([{ field: 'files', message: 'profile.documents.files_required' }]);
    const six = Array.from({ length: 6 }, (_, i) => upload(`p${i}.pdf`, 'application/pdf'));
    expect(uploadProblems('passport', six, types)).toEqual([{ field: 'files', message: 'profile.documents.too_many_files' }]);
    expect(uploadProblems('passport', six.slice(0, 5), types)).toEqual([]);
    expect(uploadProblems('passport', [upload('a.exe', 'application/x-msdownload')], types)).toEqual([{ field: 'files', message: 'profile.documents.file_type_invalid' }]);
    expect(uploadProblems('passport', [upload('big.pdf', 'application/pdf', 10 * MB + 1)], types)).toEqual([{ field: 'files', message: 'profile.documents.file_too_large' }]);
    expect(uploadProblems('passport', [upload('ok.pdf', 'application/pdf', 10 * MB)], types)).toEqual([]);
    expect(uploadProblems('passport', [upload('empty.png', 'image/png', 0)], types)).toEqual([{ field: 'files', message: 'profile.documents.file_empty' }]);
  });

  it('reads the type from the extension when the browser gives none', () => {
    expect(mimeOf({ name: 'SCAN.JPG', type: '' })).toBe('image/jpeg');
    expect(mimeOf({ name: 'statement.pdf', type: '' })).toBe('application/pdf');
    expect(mimeOf({ name: 'notes', type: '' })).toBe('');
    expect(mimeOf({ name: 'a.jpg', type: 'image/jpg' })).toBe('image/jpeg');
  });
});

function start(outcomes: { upload?: () => Promise<Document[]>; remove?: () => Promise<void>; loads?: Array<() => Promise<DocumentsSnapshotData>> } = {}) {
  const calls = { loads: 0, uploads: [] as UploadDocumentsInput[], deletes: [] as number[] };
  const machine = documentsMachine.provide({
    actors: {
      loadDocuments: fromPromise<DocumentsSnapshotData, void>(() => {
        const next = outcomes.loads?.[calls.loads] ?? (() => Promise.resolve(loaded));
        calls.loads += 1;
        return next();
      }),
      uploadDocuments: fromPromise<Document[], UploadDocumentsInput>(({ input }) => {
        calls.uploads.push(input);
        return (outcomes.upload ?? (() => Promise.resolve([doc(13, 'uploaded')])))();
      }),
      deleteDocument: fromPromise<void, DeleteDocumentInput>(({ input }) => {
        calls.deletes.push(input.id);
        return (outcomes.remove ?? (() => Promise.resolve()))();
      }),
    },
  });
  return { ...startUnderParent(machine), calls };
}

describe('documents', () => {
  it('loads, uploads a valid set and puts the new document first', async () => {
    const { actor, calls, parentEvents } = start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'documents.uploadSubmitted', docType: 'passport', files: [] });
    expect(calls.uploads).toEqual([]);
    expect(actor.getSnapshot().context.uploadFieldErrors).toEqual([{ field: 'files', message: 'profile.documents.files_required' }]);
    actor.send({ type: 'documents.uploadSubmitted', docType: 'passport', files: [scan] });
    await waitFor(actor, (s) => s.matches({ ready: { upload: 'uploaded' } }));
    expect(calls.uploads).toEqual([{ docType: 'passport', files: [scan] }]);
    expect(actor.getSnapshot().context.documents.map((d) => d.id)).toEqual([13, 11, 12]);
    expect(actor.getSnapshot().context.uploadFieldErrors).toEqual([]);
    expect(parentEvents).toEqual([{ type: 'toast.requested', toast: { type: 'success', messageKey: 'profile.documents.uploaded' } }]);
  });

  it('says "Failed to load documents" (or the server text) and retries', async () => {
    const { actor } = start({ loads: [() => Promise.reject(new Error('')), () => Promise.resolve(loaded)] });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.loadError).toBe('profile.errors.load_documents_failed');
    actor.send({ type: 'documents.retryRequested' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.documents).toHaveLength(2);
  });

  it('deletes only a document that is not approved, after confirming; a failure keeps the dialog', async () => {
    let attempt = 0;
    const { actor, calls } = start({ remove: () => (++attempt === 1 ? Promise.reject(new Error('')) : Promise.resolve()) });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'documents.deleteRequested', id: 12 });
    expect(actor.getSnapshot().matches({ ready: { removal: 'idle' } })).toBe(true);
    actor.send({ type: 'documents.deleteRequested', id: 11 });
    expect(actor.getSnapshot().matches({ ready: { removal: 'confirming' } })).toBe(true);
    actor.send({ type: 'documents.deleteConfirmed' });
    await waitFor(actor, (s) => s.matches({ ready: { removal: 'confirming' } }) && s.context.deleteError !== null);
    expect(actor.getSnapshot().context.deleteError).toBe('profile.errors.delete_document_failed');
    actor.send({ type: 'documents.deleteConfirmed' });
    await waitFor(actor, (s) => s.matches({ ready: { removal: 'idle' } }));
    expect(calls.deletes).toEqual([11, 11]);
    expect(actor.getSnapshot().context.documents.map((d) => d.id)).toEqual([12]);
  });

  it('applies a status push in place and refreshes for a document it does not know', async () => {
    const later: DocumentsSnapshotData = { types, documents: [doc(20, 'pending'), ...loaded.documents] };
    const { actor, calls } = start({ loads: [() => Promise.resolve(loaded), () => Promise.resolve(later)] });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'documents.statusUpdated', document: { id: 11, status: 'rejected', rejection_reason: 'Blurry photo' } });
    expect(actor.getSnapshot().context.documents[0]).toMatchObject({ id: 11, status: 'rejected', rejection_reason: 'Blurry photo' });
    actor.send({ type: 'documents.statusUpdated', document: { id: 20, status: 'pending', rejection_reason: null } });
    await waitFor(actor, (s) => s.matches({ ready: { sync: 'idle' } }) && s.context.documents.length === 3);
    expect(calls.loads).toBe(2);
    expect(actor.getSnapshot().context.documents.map((d) => d.id)).toEqual([20, 11, 12]);
  });

  it('downloads a stored file, and toasts when that fails', async () => {
    const downloads: DownloadDocumentFileInput[] = [];
    const machine = documentsMachine.provide({
      actors: {
        loadDocuments: fromPromise<DocumentsSnapshotData, void>(() => Promise.resolve(loaded)),
        downloadDocumentFile: fromPromise<void, DownloadDocumentFileInput>(({ input }) => {
          downloads.push(input);
          return downloads.length === 1 ? Promise.resolve() : Promise.reject(new Error('Document not found'));
        }),
      },
    });
    const { actor, parentEvents } = startUnderParent(machine);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'documents.fileDownloadRequested', documentId: 11, fileId: 110, name: 'scan-11.png' });
    await waitFor(actor, (s) => s.matches({ ready: { download: 'idle' } }));
    actor.send({ type: 'documents.fileDownloadRequested', documentId: 11, fileId: 111, name: 'gone.png' });
    await waitFor(actor, () => parentEvents.length > 0);
    expect(downloads).toEqual([
      { documentId: 11, fileId: 110, name: 'scan-11.png' },
      { documentId: 11, fileId: 111, name: 'gone.png' },
    ]);
    expect(parentEvents).toEqual([{ type: 'toast.requested', toast: { type: 'error', message: 'Document not found' } }]);
  });
});
