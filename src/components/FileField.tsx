/**
 * FileField: pick files with a keyboard-accessible button or by drag and drop, see the chosen
 * files with remove buttons. Each added file is checked against the accepted types and the
 * size limit, and the list against the maximum count; a refused file is not added and the
 * reason is shown (profile.file_too_large, profile.file_type_not_supported,
 * profile.too_many_files). Controlled with value/onChange, or uncontrolled with onChange only.
 */
import { useId, useRef, useState, type DragEvent } from 'react';
import { useFormat, useT } from '../i18n';
import { Button, IconButton } from './Button';
import { Icon } from './Icon';
import { cx } from './cx';
import { FieldError } from './field-parts';
import './FileField.css';

export type FileFieldProps = {
  label: string;
  /** MIME types ("image/png", "image/*") and/or extensions (".pdf"). */
  accept: readonly string[];
  /** Text listing the accepted types; derived from `accept` when omitted ("JPG, PNG, PDF"). */
  acceptLabel?: string;
  maxSizeMB?: number;
  maxFiles?: number;
  value?: readonly File[];
  onChange?: (files: File[]) => void;
  /** An error from outside (a required-field message, a failed upload). */
  error?: string | null;
  hint?: string;
  name?: string;
  disabled?: boolean;
  required?: boolean;
  id?: string;
  className?: string;
};

const EXTENSIONS: Record<string, string[]> = {
  'image/jpeg': ['jpg', 'jpeg'],
  'image/png': ['png'],
  'image/webp': ['webp'],
  'image/gif': ['gif'],
  'image/heic': ['heic'],
  'image/heif': ['heif'],
  'application/pdf': ['pdf'],
};

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot >= 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** Whether a file matches one of the accepted MIME types, wildcards or extensions. */
export function isAccepted(file: Pick<File, 'name' | 'type'>, accept: readonly string[]): boolean {
  if (accept.length === 0) return true;
  const type = file.type.toLowerCase();
  const ext = extensionOf(file.name);
  return accept.some((raw) => {
    const rule = raw.trim().toLowerCase();
    if (rule.startsWith('.')) return ext === rule.slice(1);
    if (rule.endsWith('/*')) return type ? type.startsWith(rule.slice(0, -1)) : false;
    if (type) return type === rule || (rule === 'image/jpeg' && type === 'image/jpg');
    // Some systems give no MIME type; fall back to the extension the type implies.
    return (EXTENSIONS[rule] ?? []).includes(ext);
  });
}

function describeAccept(accept: readonly string[], anyImage: string): string {
  const names = accept.map((raw) => {
    const rule = raw.trim().toLowerCase();
    if (rule.startsWith('.')) return rule.slice(1).toUpperCase();
    if (rule === 'image/*') return anyImage;
    if (rule === 'image/jpeg') return 'JPG';
    return (rule.split('/')[1] ?? rule).toUpperCase();
  });
  return [...new Set(names)].join(', ');
}

export function FileField({
  label,
  accept,
  acceptLabel,
  maxSizeMB = 10,
  maxFiles = 5,
  value,
  onChange,
  error,
  hint,
  name,
  disabled = false,
  required,
  id,
  className,
}: FileFieldProps) {
  const t = useT();
  const format = useFormat();
  const auto = useId();
  const inputId = id ?? `file-${auto}`;
  const labelId = `${inputId}-label`;
  const rulesId = `${inputId}-rules`;
  const errorId = `${inputId}-error`;
  const inputRef = useRef<HTMLInputElement>(null);
  const [own, setOwn] = useState<File[]>([]);
  const [rejections, setRejections] = useState<string[]>([]);
  const [dragging, setDragging] = useState(false);
  const files = value ? [...value] : own;
  const types = acceptLabel ?? describeAccept(accept, t('components.file_field.any_image'));

  const commit = (next: File[]) => {
    if (!value) setOwn(next);
    onChange?.(next);
  };

  const add = (incoming: File[]) => {
    if (disabled || incoming.length === 0) return;
    const next = [...files];
    const problems: string[] = [];
    let overflow = false;
    for (const file of incoming) {
      if (!isAccepted(file, accept)) {
        problems.push(t('profile.file_type_not_supported', { name: file.name, types }));
      } else if (file.size > maxSizeMB * 1024 * 1024) {
        problems.push(t('profile.file_too_large', { name: file.name, max: maxSizeMB }));
      } else if (next.length >= maxFiles) {
        overflow = true;
      } else if (!next.some((f) => f.name === file.name && f.size === file.size && f.lastModified === file.lastModified)) {
        next.push(file);
      }
    }
    if (overflow) problems.push(t('profile.too_many_files', { max: maxFiles }));
    setRejections(problems);
    if (next.length !== files.length) commit(next);
  };

  const remove = (index: number) => {
    setRejections([]);
    commit(files.filter((_, i) => i !== index));
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    add(Array.from(event.dataTransfer?.files ?? []));
  };

  const shownError = error ?? '';
  const describedBy = [rulesId, hint ? `${inputId}-hint` : null, shownError ? errorId : null].filter(Boolean).join(' ');
  const full = files.length >= maxFiles;

  return (
    <div className={cx('field', 'file-field', shownError && 'field-invalid', className)} role="group" aria-labelledby={labelId}>
      <label id={labelId} htmlFor={inputId} className="field-label">
        {label}
        {required ? (
          <span className="field-required" aria-hidden="true">
            {' *'}
          </span>
        ) : null}
      </label>
      <div
        className={cx('file-drop', dragging && 'file-drop-active', disabled && 'file-drop-disabled')}
        onDragEnter={(event) => {
          event.preventDefault();
          if (!disabled) setDragging(true);
        }}
        onDragOver={(event) => event.preventDefault()}
        onDragLeave={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
        }}
        onDrop={onDrop}
        data-testid="file-drop"
      >
        <Icon name="upload" size={24} className="file-drop-icon" />
        <div className="file-drop-text">
          <Button
            variant="secondary"
            size="sm"
            onClick={() => inputRef.current?.click()}
            disabled={disabled || full}
            aria-describedby={describedBy}
          >
            {maxFiles > 1 ? t('components.file_field.choose') : t('components.file_field.choose_one')}
          </Button>
          <span className="file-drop-or">{maxFiles > 1 ? t('components.file_field.drop') : t('components.file_field.drop_one')}</span>
        </div>
        <p id={rulesId} className="file-rules">
          {t('components.file_field.accepted', { types })}
          {' · '}
          {maxFiles > 1
            ? t('components.file_field.limits', { size: maxSizeMB, count: maxFiles })
            : t('components.file_field.limit_one', { size: maxSizeMB })}
        </p>
        <input
          ref={inputRef}
          id={inputId}
          name={name}
          type="file"
          className="visually-hidden"
          tabIndex={-1}
          accept={accept.join(',')}
          multiple={maxFiles > 1}
          disabled={disabled}
          aria-describedby={describedBy}
          onChange={(event) => {
            add(Array.from(event.currentTarget.files ?? []));
            // Let the same file be chosen again after it was removed.
            event.currentTarget.value = '';
          }}
        />
      </div>
      {hint ? (
        <p id={`${inputId}-hint`} className="field-hint">
          {hint}
        </p>
      ) : null}
      {files.length > 0 ? (
        <ul className="file-list" aria-label={t('components.file_field.selected', { count: files.length, max: maxFiles })}>
          {files.map((file, index) => (
            <li key={`${file.name}-${file.size}-${file.lastModified}-${index}`} className="file-item">
              <Icon name="file" size={18} className="file-item-icon" />
              <span className="file-item-name truncate" title={file.name}>
                {file.name}
              </span>
              <span className="file-item-size tabular">{format.fileSize(file.size)}</span>
              <IconButton
                icon="trash"
                size="sm"
                label={t('components.file_field.remove', { name: file.name })}
                onClick={() => remove(index)}
                disabled={disabled}
              />
            </li>
          ))}
        </ul>
      ) : null}
      <div className="file-rejections" aria-live="assertive">
        {rejections.length > 0 ? (
          <ul className="file-rejection-list">
            {rejections.map((message, i) => (
              <li key={i} className="field-error">
                <Icon name="error" size={16} />
                <span>{message}</span>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      <FieldError id={errorId} error={shownError} />
    </div>
  );
}
