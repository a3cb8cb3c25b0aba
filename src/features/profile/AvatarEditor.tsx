/**
 * The avatar in the profile's header card: the current image (or initials), "Change photo",
 * then a preview of the chosen image with Upload and Cancel. The avatar actor checks the file
 * (JPEG, PNG, WebP or GIF up to 5 MB) and uploads it; the session then re-fetches the user, so
 * the header's avatar changes too. The preview is an object URL of the chosen file, released
 * when it is no longer shown.
 */
import { useEffect, useRef, useState } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { avatarMachine } from '../../../machines/avatar/avatar.machine';
import { AVATAR_ACCEPTED, AVATAR_MAX_MB } from '../../../contract/profile';
import { Button, InfoChip } from '../../components';
import { useT } from '../../i18n';
import { translateText } from '../../shared/form-fields';

type AvatarActor = ActorRefFrom<typeof avatarMachine>;

function useObjectUrl(file: Blob | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(file);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [file]);
  return url;
}

export function AvatarImage({ url, name, size = 72, alt }: { url: string | null; name: string; size?: number; alt: string }) {
  const initials = name.slice(0, 2).toUpperCase() || '?';
  return url ? (
    <img className="profile-avatar-img" src={url} alt={alt} width={size} height={size} />
  ) : (
    <span className="profile-avatar-img profile-avatar-initials" style={{ width: size, height: size }} role="img" aria-label={alt}>
      {initials}
    </span>
  );
}

export function AvatarEditor({ actor, avatarUrl, username }: { actor: AvatarActor | undefined; avatarUrl: string | null; username: string }) {
  const t = useT();
  const inputRef = useRef<HTMLInputElement>(null);
  const file = useSelector(actor, (s) => s?.context.file ?? null);
  const error = useSelector(actor, (s) => s?.context.error ?? null);
  const uploading = useSelector(actor, (s) => s?.matches('uploading') ?? false);
  const previewing = useSelector(actor, (s) => s?.matches('previewing') ?? false);
  const preview = useObjectUrl(file);
  const choosing = previewing || uploading;

  return (
    <div className="profile-avatar">
      <AvatarImage
        url={preview ?? avatarUrl}
        name={username}
        size={72}
        alt={preview ? t('profile.avatar.preview_alt') : t('profile.avatar.current_alt', { name: username })}
      />
      <div className="profile-avatar-controls">
        {choosing ? (
          <div className="cluster">
            <Button
              variant="primary"
              size="sm"
              icon="upload"
              loading={uploading}
              loadingLabel={t('profile.avatar.uploading')}
              onClick={() => actor?.send({ type: 'avatar.uploadConfirmed' })}
            >
              {t('profile.avatar.upload')}
            </Button>
            <Button variant="ghost" size="sm" disabled={uploading} onClick={() => actor?.send({ type: 'avatar.cancelled' })}>
              {t('common.cancel')}
            </Button>
          </div>
        ) : (
          <Button variant="secondary" size="sm" icon="upload" disabled={!actor} onClick={() => inputRef.current?.click()}>
            {avatarUrl ? t('profile.avatar.change') : t('profile.avatar.add')}
          </Button>
        )}
        <p className="text-xs text-muted">{t('profile.avatar.rules', { size: AVATAR_MAX_MB })}</p>
        {error ? (
          <InfoChip kind="error" compact live>
            {translateText(t, error, { size: AVATAR_MAX_MB })}
          </InfoChip>
        ) : null}
        <input
          ref={inputRef}
          type="file"
          className="visually-hidden"
          tabIndex={-1}
          accept={AVATAR_ACCEPTED.join(',')}
          aria-label={t('profile.avatar.choose')}
          onChange={(event) => {
            const chosen = event.currentTarget.files?.[0];
            if (chosen) actor?.send({ type: 'avatar.fileChosen', file: chosen });
            // The same file may be chosen again after Cancel.
            event.currentTarget.value = '';
          }}
        />
      </div>
    </div>
  );
}
