/**
 * The avatar (avatar.machine): generated paths with full coverage, then behaviour with a stub
 * upload: only JPEG/PNG/WebP/GIF up to 5 MB reach the preview, the upload sends the chosen
 * file, success refreshes the session user and toasts, failure keeps the preview with the
 * server's text or "Failed to upload avatar".
 */
import { afterAll, describe, expect, it } from 'vitest';
import { fromPromise, waitFor, type AnyEventObject } from 'xstate';
import { avatarFileProblem, avatarMachine, type AvatarResult, type UploadAvatarInput } from '../../machines/avatar/avatar.machine';
import { assertFullCoverage, pathCases, printCoverage, replayPath, startUnderParent, type PathModel } from './harness';
import en from '../../locales/en.json';

function image(name: string, type: string, size = 2048): File {
  const file = new File([new Uint8Array(8)], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  // The path generator tells events and states apart by their JSON; a File's JSON is {}.
  Object.defineProperty(file, 'toJSON', { value: () => ({ name, type, size }) });
  return file;
}
const png = image('me.png', 'image/png');
const webp = image('me.webp', 'image/webp');
const script = image('me.jpg', 'text/x-shellscript');
const huge = image('huge.jpg', 'image/jpeg', 5 * 1024 * 1024 + 1);

const events: AnyEventObject[] = [
  { type: 'avatar.fileChosen', file: png },
  { type: 'avatar.fileChosen', file: webp },
  { type: 'avatar.fileChosen', file: script },
  { type: 'avatar.uploadConfirmed' },
  { type: 'avatar.cancelled' },
  { type: 'xstate.done.actor.uploadAvatar', output: { avatar_url: '/uploads/avatars/abc.webp' } },
  { type: 'xstate.error.actor.uploadAvatar', error: { message: 'Unsupported image type' } },
  { type: 'xstate.error.actor.uploadAvatar', error: {} },
];
const model: PathModel = { name: 'avatar', machine: avatarMachine, events };

describe('avatar machine paths', () => {
  afterAll(printCoverage);
  it.each(pathCases(model))('%s', (_, path) => {
    replayPath(model, path);
  });
  it('reaches every state and takes every transition', () => assertFullCoverage('avatar'));
});

describe('avatar', () => {
  it('accepts only images of the four types within 5 MB', () => {
    expect(avatarFileProblem(png)).toBeNull();
    expect(avatarFileProblem(image('a.gif', 'image/gif'))).toBeNull();
    expect(avatarFileProblem(image('a.JPG', 'IMAGE/JPEG'))).toBeNull();
    expect(avatarFileProblem(script)).toBe('profile.avatar.type_invalid');
    expect(avatarFileProblem(image('a.svg', 'image/svg+xml'))).toBe('profile.avatar.type_invalid');
    expect(avatarFileProblem(huge)).toBe('profile.avatar.too_large');
    expect(avatarFileProblem(image('a.png', 'image/png', 0))).toBe('profile.avatar.empty');
  });

  it('previews, uploads the chosen file, refreshes the user and toasts', async () => {
    const uploads: File[] = [];
    const machine = avatarMachine.provide({
      actors: {
        uploadAvatar: fromPromise<AvatarResult, UploadAvatarInput>(({ input }) => {
          uploads.push(input.file);
          return Promise.resolve({ avatar_url: '/uploads/avatars/abc.webp' });
        }),
      },
    });
    const { actor, parentEvents } = startUnderParent(machine);
    actor.send({ type: 'avatar.fileChosen', file: huge });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.error).toBe('profile.avatar.too_large');
    actor.send({ type: 'avatar.fileChosen', file: png });
    expect(actor.getSnapshot().value).toBe('previewing');
    actor.send({ type: 'avatar.fileChosen', file: webp });
    expect(actor.getSnapshot().context).toEqual({ file: webp, error: null });
    actor.send({ type: 'avatar.uploadConfirmed' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(uploads).toEqual([webp]);
    expect(actor.getSnapshot().context).toEqual({ file: null, error: null });
    expect(parentEvents).toEqual([
      { type: 'session.userRefreshRequested' },
      { type: 'toast.requested', toast: { type: 'success', messageKey: 'profile.avatar.uploaded' } },
    ]);
  });

  it('keeps the preview with the error when the upload fails', async () => {
    const machine = avatarMachine.provide({
      actors: { uploadAvatar: fromPromise<AvatarResult, UploadAvatarInput>(() => Promise.reject(new Error(''))) },
    });
    const { actor, parentEvents } = startUnderParent(machine);
    actor.send({ type: 'avatar.fileChosen', file: png });
    actor.send({ type: 'avatar.uploadConfirmed' });
    await waitFor(actor, (s) => s.matches('previewing') && s.context.error !== null);
    expect(actor.getSnapshot().context).toEqual({ file: png, error: 'profile.errors.avatar_failed' });
    // "Avatar upload failed" (spec section 8) as a toast; the reason stays under the preview.
    expect(parentEvents).toEqual([{ type: 'toast.requested', toast: { type: 'error', messageKey: 'profile.avatar.upload_failed' } }]);
    expect(en.profile.avatar.upload_failed).toBe('Avatar upload failed');
  });
});
