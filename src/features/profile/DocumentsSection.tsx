/**
 * Identity documents: upload (a type, then 1-5 files with the kit's FileField, each within the
 * type's size limit and of an accepted type from GET /api/v2/documents/types) and the list with
 * status badges (uploaded, pending, approved, rejected with the operator's reason), the files
 * (download) and Delete while not approved, behind a confirmation that stays open on failure.
 * Status changes pushed by the server update the list live.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { DOCUMENT_ACCEPTED, DOCUMENT_MAX_FILES, DOCUMENT_MAX_MB, type Document, type DocumentStatus, type DocumentTypeInfo } from '../../../contract/profile';
import type { documentsMachine } from '../../../machines/documents/documents.machine';
import { typeInfoOf, uploadProblems } from '../../../machines/documents/documents.schemas';
import { Button, ConfirmDialog, DateTime, EmptyState, FileField, Icon, IconButton, InfoChip, SelectField, SkeletonList, type InfoKind } from '../../components';
import { useFormat, useT, type TFunction } from '../../i18n';
import { translateText } from '../../shared/form-fields';

type DocumentsActor = ActorRefFrom<typeof documentsMachine>;

export const STATUS_KIND: Record<DocumentStatus, InfoKind> = {
  uploaded: 'info',
  pending: 'warning',
  approved: 'success',
  rejected: 'error',
};

function typeLabel(t: TFunction, types: readonly DocumentTypeInfo[], type: string): string {
  return t(typeInfoOf(types, type)?.label_key ?? `profile.documents.types.${type}`);
}

function UploadForm({ actor }: { actor: DocumentsActor }) {
  const t = useT();
  const types = useSelector(actor, (s) => s.context.types);
  const uploading = useSelector(actor, (s) => s.matches({ ready: { upload: 'uploading' } }));
  const uploaded = useSelector(actor, (s) => s.matches({ ready: { upload: 'uploaded' } }));
  const error = useSelector(actor, (s) => s.context.uploadError);
  const fieldErrors = useSelector(actor, (s) => s.context.uploadFieldErrors);
  const [docType, setDocType] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [typeTouched, setTypeTouched] = useState(false);
  const [submitted, setSubmitted] = useState(false);

  // A finished upload starts a fresh form.
  const wasUploaded = useRef(false);
  useEffect(() => {
    if (uploaded && !wasUploaded.current) {
      setDocType('');
      setFiles([]);
      setTypeTouched(false);
      setSubmitted(false);
    }
    wasUploaded.current = uploaded;
  }, [uploaded]);

  const info = typeInfoOf(types, docType);
  const maxFiles = info?.max_files ?? DOCUMENT_MAX_FILES;
  const maxMb = info?.max_size_mb ?? DOCUMENT_MAX_MB;
  const accept = info?.accepted ?? [...DOCUMENT_ACCEPTED];
  // What the user sees: their own mistakes as they make them, the machine's after a submit.
  const local = uploadProblems(docType, files, types);
  const shown = submitted ? (fieldErrors.length ? fieldErrors : local) : local.filter((p) => p.field === 'type' && typeTouched);
  const problem = (field: string) => {
    const found = shown.find((p) => p.field === field);
    return found ? t(found.message, { max: maxFiles, size: maxMb }) : '';
  };
  const typeOptions = useMemo(() => types.map((info) => ({ value: info.type, label: t(info.label_key) })), [types, t]);

  return (
    <form
      className="profile-upload stack"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setSubmitted(true);
        setTypeTouched(true);
        actor.send({ type: 'documents.uploadSubmitted', docType, files });
      }}
    >
      <h3 className="profile-subtitle">{t('profile.documents.upload_title')}</h3>
      {error ? (
        <InfoChip kind="error" live>
          {translateText(t, error)}
        </InfoChip>
      ) : null}
      <SelectField
        label={t('profile.documents.type')}
        placeholder={t('profile.documents.choose_type')}
        options={typeOptions}
        value={docType}
        required
        disabled={uploading}
        error={problem('type')}
        onChange={(event) => setDocType(event.currentTarget.value)}
        onBlur={() => setTypeTouched(true)}
      />
      <FileField
        label={t('profile.documents.files')}
        accept={accept}
        maxFiles={maxFiles}
        maxSizeMB={maxMb}
        value={files}
        onChange={setFiles}
        disabled={uploading}
        required
        error={problem('files') || null}
        hint={t('profile.documents.files_hint')}
      />
      <div className="cluster-end cluster">
        <Button type="submit" variant="primary" icon="upload" loading={uploading} loadingLabel={t('profile.documents.uploading')}>
          {t('profile.documents.upload')}
        </Button>
      </div>
    </form>
  );
}

function DocumentCard({ document, types, actor }: { document: Document; types: readonly DocumentTypeInfo[]; actor: DocumentsActor }) {
  const t = useT();
  const format = useFormat();
  const downloading = useSelector(actor, (s) => s.matches({ ready: { download: 'downloading' } }));
  const title = typeLabel(t, types, document.type);
  return (
    <li className="profile-doc">
      <div className="profile-doc-head">
        <Icon name="file" size={20} className="profile-doc-icon" />
        <div className="profile-doc-title">
          <strong>{title}</strong>
          <span className="text-xs text-muted">
            {t('profile.documents.uploaded_at')} <DateTime value={document.created_at} />
            {document.updated_at !== document.created_at ? (
              <>
                {' · '}
                {t('profile.documents.updated_at')} <DateTime value={document.updated_at} />
              </>
            ) : null}
          </span>
        </div>
        <InfoChip kind={STATUS_KIND[document.status]} compact className="profile-doc-status">
          {t(`profile.documents.status.${document.status}`)}
        </InfoChip>
        {document.status !== 'approved' ? (
          <IconButton icon="trash" size="sm" label={t('profile.documents.delete_named', { name: title })} onClick={() => actor.send({ type: 'documents.deleteRequested', id: document.id })} />
        ) : null}
      </div>
      {document.status === 'rejected' && document.rejection_reason ? (
        <InfoChip kind="error" compact>
          {t('profile.documents.rejection_reason', { reason: document.rejection_reason })}
        </InfoChip>
      ) : null}
      <ul className="profile-doc-files">
        {document.files.map((file) => (
          <li key={file.id} className="profile-doc-file">
            <span className="truncate" title={file.name}>
              {file.name}
            </span>
            <span className="text-xs text-muted tabular nowrap">{format.fileSize(file.size)}</span>
            <IconButton
              icon="deposit"
              size="sm"
              label={t('profile.documents.download', { name: file.name })}
              disabled={downloading}
              onClick={() => actor.send({ type: 'documents.fileDownloadRequested', documentId: document.id, fileId: file.id, name: file.name })}
            />
          </li>
        ))}
      </ul>
    </li>
  );
}

export function DocumentsSection({ actor }: { actor: DocumentsActor | undefined }) {
  const t = useT();
  const loading = useSelector(actor, (s) => !s || s.matches('loading'));
  const failed = useSelector(actor, (s) => s?.matches('failed') ?? false);
  const loadError = useSelector(actor, (s) => s?.context.loadError ?? null);
  const documents = useSelector(actor, (s) => s?.context.documents ?? []);
  const types = useSelector(actor, (s) => s?.context.types ?? []);
  const confirming = useSelector(actor, (s) => (s?.matches({ ready: { removal: 'confirming' } }) || s?.matches({ ready: { removal: 'deleting' } })) ?? false);
  const deleting = useSelector(actor, (s) => s?.matches({ ready: { removal: 'deleting' } }) ?? false);
  const deleteError = useSelector(actor, (s) => s?.context.deleteError ?? null);
  const deleteId = useSelector(actor, (s) => s?.context.deleteId ?? null);

  if (loading || !actor) return <SkeletonList rows={3} rowHeight={64} />;
  if (failed) {
    return (
      <InfoChip
        kind="error"
        live
        action={
          <Button size="sm" icon="refresh" onClick={() => actor.send({ type: 'documents.retryRequested' })}>
            {t('common.retry')}
          </Button>
        }
      >
        {translateText(t, loadError)}
      </InfoChip>
    );
  }
  const toDelete = documents.find((d) => d.id === deleteId);
  return (
    <div className="profile-documents">
      <UploadForm actor={actor} />
      <div className="stack">
        <h3 className="profile-subtitle">{t('profile.documents.list_title')}</h3>
        {documents.length === 0 ? (
          <EmptyState icon="file" compact title={t('profile.documents.empty_title')} hint={t('profile.documents.empty_hint')} />
        ) : (
          <ul className="profile-doc-list" aria-label={t('profile.documents.list_title')}>
            {documents.map((document) => (
              <DocumentCard key={document.id} document={document} types={types} actor={actor} />
            ))}
          </ul>
        )}
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => (open ? undefined : actor.send({ type: 'documents.deleteCancelled' }))}
        title={t('profile.documents.delete_title')}
        message={toDelete ? t('profile.documents.delete_message', { name: typeLabel(t, types, toDelete.type) }) : undefined}
        confirmLabel={t('common.delete')}
        loadingLabel={t('profile.documents.deleting')}
        confirmVariant="danger"
        loading={deleting}
        error={deleteError ? translateText(t, deleteError) : null}
        onConfirm={() => actor.send({ type: 'documents.deleteConfirmed' })}
      />
    </div>
  );
}
