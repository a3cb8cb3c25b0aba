/**
 * Identity documents of the profile screen: the list with statuses, upload, delete.
 *
 * Lifecycle: spawned with the profile screen (by the profilePage flow, systemId 'documents'),
 * stopped when it closes. `loading` fetches the document types (with their limits) and the
 * user's documents together; a failure waits in `failed` ("Failed to load documents") for
 * `documents.retryRequested`. `ready` runs three regions side by side:
 * - `upload`: `idle` -(documents.uploadSubmitted {docType, files}, valid for the type's limits)->
 *   `uploading` (multipart POST /api/v2/documents/upload) -> `uploaded` (the new documents head
 *   the list, a toast; the view clears its form) or `idle` with the server's text / "Failed to
 *   upload documents".
 * - `removal`: `idle` -(documents.deleteRequested {id}, a document that is not approved)->
 *   `confirming` (the view's confirm dialog) -(deleteConfirmed)-> `deleting` -> `idle` (removed,
 *   a toast) or back to `confirming` with the error, so the dialog stays open on failure.
 * - `sync`: a status push (`documents.statusUpdated`, routed from the socket's
 *   document_status_update) updates a listed document in place; one the list does not know
 *   (uploaded elsewhere) or `documents.refreshRequested` re-fetches the list in the background.
 * - `download`: `documents.fileDownloadRequested` fetches one stored file (owner only, with the
 *   bearer token) and hands it to the browser as a download; a failure toasts.
 */
import { assertEvent, assign, fromPromise, sendParent, setup } from 'xstate';
import type { FieldError } from '../../contract/envelope';
import type { Document, DocumentStatus, DocumentTypeInfo } from '../../contract/profile';
import type { ToastRequest } from '../types';
import { failureText, PROFILE_FALLBACKS, toastOf } from '../profile/feedback';
import { uploadProblems } from './documents.schemas';

export interface DocumentsContext {
  types: DocumentTypeInfo[];
  documents: Document[];
  loadError: string | null;
  uploadError: string | null;
  uploadFieldErrors: FieldError[];
  /** The document the confirm dialog is about. */
  deleteId: number | null;
  deleteError: string | null;
}

export interface DocumentStatusChange {
  id: number;
  status: DocumentStatus;
  rejection_reason: string | null;
}

export type DocumentsEvent =
  | { type: 'documents.retryRequested' }
  | { type: 'documents.refreshRequested' }
  | { type: 'documents.uploadSubmitted'; docType: string; files: File[] }
  | { type: 'documents.deleteRequested'; id: number }
  | { type: 'documents.deleteConfirmed' }
  | { type: 'documents.deleteCancelled' }
  | { type: 'documents.statusUpdated'; document: DocumentStatusChange }
  | { type: 'documents.fileDownloadRequested'; documentId: number; fileId: number; name: string };

export type DocumentsParentEvent = { type: 'toast.requested'; toast: ToastRequest };

export interface DocumentsSnapshotData {
  types: DocumentTypeInfo[];
  documents: Document[];
}
export interface UploadDocumentsInput {
  docType: string;
  files: File[];
}
export interface DeleteDocumentInput {
  id: number;
}
export interface DownloadDocumentFileInput {
  documentId: number;
  fileId: number;
  name: string;
}

function missing(name: string): never {
  throw new Error(`documentsMachine: the "${name}" actor has no implementation; supply it with documentsMachine.provide()`);
}

export const documentsMachine = setup({
  types: {
    context: {} as DocumentsContext,
    events: {} as DocumentsEvent,
  },
  actors: {
    loadDocuments: fromPromise<DocumentsSnapshotData, void>(() => missing('loadDocuments')),
    uploadDocuments: fromPromise<Document[], UploadDocumentsInput>(() => missing('uploadDocuments')),
    deleteDocument: fromPromise<void, DeleteDocumentInput>(() => missing('deleteDocument')),
    downloadDocumentFile: fromPromise<void, DownloadDocumentFileInput>(() => missing('downloadDocumentFile')),
  },
  guards: {
    isUploadValid: ({ context, event }) => {
      assertEvent(event, 'documents.uploadSubmitted');
      return uploadProblems(event.docType, event.files, context.types).length === 0;
    },
    isDeletable: ({ context, event }) => {
      assertEvent(event, 'documents.deleteRequested');
      const document = context.documents.find((d) => d.id === event.id);
      return document !== undefined && document.status !== 'approved';
    },
    isKnownDocument: ({ context, event }) => {
      assertEvent(event, 'documents.statusUpdated');
      return context.documents.some((d) => d.id === event.document.id);
    },
  },
  actions: {
    assignLoaded: assign((_, data: DocumentsSnapshotData) => ({ types: data.types, documents: data.documents, loadError: null })),
    assignLoadError: assign((_, params: { error: unknown }) => ({ loadError: failureText(params.error, PROFILE_FALLBACKS.loadDocuments) })),
    startUpload: assign({ uploadError: null, uploadFieldErrors: [] }),
    rejectUpload: assign(({ context, event }) => {
      assertEvent(event, 'documents.uploadSubmitted');
      return { uploadError: null, uploadFieldErrors: uploadProblems(event.docType, event.files, context.types) };
    }),
    addDocuments: assign(({ context }, created: Document[]) => {
      const ids = new Set(created.map((d) => d.id));
      return { documents: [...created, ...context.documents.filter((d) => !ids.has(d.id))] };
    }),
    assignUploadError: assign((_, params: { error: unknown }) => ({ uploadError: failureText(params.error, PROFILE_FALLBACKS.uploadDocuments) })),
    chooseForDeletion: assign(({ event }) => {
      assertEvent(event, 'documents.deleteRequested');
      return { deleteId: event.id, deleteError: null };
    }),
    forgetDeletion: assign({ deleteId: null, deleteError: null }),
    clearDeleteError: assign({ deleteError: null }),
    removeDeleted: assign(({ context }) => ({ documents: context.documents.filter((d) => d.id !== context.deleteId), deleteId: null, deleteError: null })),
    assignDeleteError: assign((_, params: { error: unknown }) => ({ deleteError: failureText(params.error, PROFILE_FALLBACKS.deleteDocument) })),
    applyStatus: assign(({ context, event }) => {
      assertEvent(event, 'documents.statusUpdated');
      const change = event.document;
      return {
        documents: context.documents.map((d) => (d.id === change.id ? { ...d, status: change.status, rejection_reason: change.rejection_reason } : d)),
      };
    }),
    assignDocuments: assign((_, data: DocumentsSnapshotData) => ({ types: data.types, documents: data.documents })),
    toast: sendParent((_, params: { toast: ToastRequest }): DocumentsParentEvent => ({ type: 'toast.requested', toast: params.toast })),
  },
}).createMachine({
  id: 'documents',
  context: { types: [], documents: [], loadError: null, uploadError: null, uploadFieldErrors: [], deleteId: null, deleteError: null },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadDocuments',
        src: 'loadDocuments',
        onDone: { target: 'ready', actions: { type: 'assignLoaded', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'assignLoadError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    failed: {
      on: { 'documents.retryRequested': 'loading' },
    },
    ready: {
      type: 'parallel',
      states: {
        upload: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'documents.uploadSubmitted': [{ guard: 'isUploadValid', target: 'uploading', actions: 'startUpload' }, { actions: 'rejectUpload' }],
              },
            },
            uploading: {
              invoke: {
                id: 'uploadDocuments',
                src: 'uploadDocuments',
                input: ({ event }) => {
                  assertEvent(event, 'documents.uploadSubmitted');
                  return { docType: event.docType, files: event.files };
                },
                onDone: {
                  target: 'uploaded',
                  actions: [
                    { type: 'addDocuments', params: ({ event }) => event.output },
                    { type: 'toast', params: { toast: { type: 'success', messageKey: 'profile.documents.uploaded' } } },
                  ],
                },
                onError: { target: 'idle', actions: { type: 'assignUploadError', params: ({ event }) => ({ error: event.error }) } },
              },
            },
            uploaded: {
              description: 'Like idle; the view starts a fresh form.',
              on: {
                'documents.uploadSubmitted': [
                  { guard: 'isUploadValid', target: 'uploading', actions: 'startUpload' },
                  { target: 'idle', actions: 'rejectUpload' },
                ],
              },
            },
          },
        },
        removal: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'documents.deleteRequested': { guard: 'isDeletable', target: 'confirming', actions: 'chooseForDeletion' },
              },
            },
            confirming: {
              on: {
                'documents.deleteConfirmed': { target: 'deleting', actions: 'clearDeleteError' },
                'documents.deleteCancelled': { target: 'idle', actions: 'forgetDeletion' },
              },
            },
            deleting: {
              invoke: {
                id: 'deleteDocument',
                src: 'deleteDocument',
                input: ({ context }) => ({ id: context.deleteId ?? 0 }),
                onDone: {
                  target: 'idle',
                  actions: ['removeDeleted', { type: 'toast', params: { toast: { type: 'success', messageKey: 'profile.documents.deleted' } } }],
                },
                onError: { target: 'confirming', actions: { type: 'assignDeleteError', params: ({ event }) => ({ error: event.error }) } },
              },
            },
          },
        },
        download: {
          initial: 'idle',
          states: {
            idle: {
              on: { 'documents.fileDownloadRequested': 'downloading' },
            },
            downloading: {
              invoke: {
                id: 'downloadDocumentFile',
                src: 'downloadDocumentFile',
                input: ({ event }) => {
                  assertEvent(event, 'documents.fileDownloadRequested');
                  return { documentId: event.documentId, fileId: event.fileId, name: event.name };
                },
                onDone: { target: 'idle' },
                onError: {
                  target: 'idle',
                  actions: { type: 'toast', params: ({ event }) => ({ toast: toastOf('error', failureText(event.error, 'profile.documents.download_failed')) }) },
                },
              },
            },
          },
        },
        sync: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'documents.statusUpdated': [
                  { guard: 'isKnownDocument', actions: 'applyStatus' },
                  { target: 'refreshing', description: 'A document this list has not seen: fetch the list again.' },
                ],
                'documents.refreshRequested': 'refreshing',
              },
            },
            refreshing: {
              invoke: {
                id: 'refreshDocuments',
                src: 'loadDocuments',
                onDone: { target: 'idle', actions: { type: 'assignDocuments', params: ({ event }) => event.output } },
                onError: { target: 'idle', description: 'A background refresh failing keeps the list as it was.' },
              },
              on: {
                'documents.statusUpdated': { guard: 'isKnownDocument', actions: 'applyStatus' },
              },
            },
          },
        },
      },
    },
  },
});
