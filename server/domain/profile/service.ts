/**
 * The profile area's service (ctx.services.profile): personal data, avatar, password change,
 * two-factor (its engine is also the login's SecondFactorGate), identity documents, the Telegram
 * link and its webhook, and the background jobs: the Telegram and email notifiers and the hourly
 * clean-up of expired codes (`start()`/`stop()`). It delegates to the area's function files,
 * which the operator CLI runs too with `cliProfileDeps`. server/composition.ts creates it after
 * the mailer and the auth service's limiter.
 */
import * as v from 'valibot';
import { ErrorText } from '../../../contract/envelope';
import {
  DocumentStatusUpdateEventSchema,
  ProfileText,
  type ChangePasswordInput,
  type SecondFactor,
  type DocumentStatusUpdateEvent,
  type DocumentType,
  type PersonalDataPatch,
  type TelegramUpdate,
} from '../../../contract/profile';
import type { AccessClaims } from '../../infra/tokens';
import { constantTimeEqual, sha256Hex } from '../../infra/crypto';
import { NotFound, unauthenticated } from '../errors';
import type { DomainEvent, EventDispatcher } from '../events';
import type { Mailer } from '../mail';
import type { ProfileDeps, ProfileServiceDeps } from './deps';
import { readAvatar, saveAvatar } from './avatar';
import { deleteDocument, getDocument, listDocuments, readDocumentFile, rejectionReasonOf, uploadDocument, type UploadedFile } from './documents';
import { startEmailNotifier } from './email-notify';
import { pruneProfileData } from './maintenance';
import { changePassword, type PasswordChangeDeps } from './password';
import { getProfile, updatePersonalData } from './personal';
import { createLinkCode, createTelegramSender, handleTelegramUpdate, linkStatus, unlink, type TelegramSender } from './telegram';
import { startTelegramNotifier } from './telegram-notify';
import { TwoFactor } from './two-factor';

/** How often expired Telegram link codes and two-factor challenges are deleted. */
export const PRUNE_EVERY_MS = 60 * 60 * 1000;

export class ProfileService {
  /** What the profile functions take (the operator CLI builds the same with cliProfileDeps). */
  readonly deps: ProfileDeps;
  /** The two-factor engine; composition.ts plugs its `challenge` into the login. */
  readonly twoFactor: TwoFactor;
  /** Telegram messages (the Bot API, or the outbox without a bot); the price alerts' delivery sends through it too. */
  readonly sender: TelegramSender;
  private readonly passwordDeps: PasswordChangeDeps;
  private readonly botName: string;
  /** SHA-256 of the webhook secret: the header's digest is compared with it in constant time. */
  private readonly webhookSecretDigest: string;
  private readonly events: Pick<EventDispatcher, 'on'>;
  private readonly mailer: Mailer;
  private readonly publicUrl: () => string;
  /** The running jobs (between start and stop). */
  private jobs: { timer: NodeJS.Timeout; stopNotifiers: (() => void)[] } | null = null;

  constructor(deps: ProfileServiceDeps) {
    this.deps = { db: deps.db, tx: deps.tx, now: deps.now, dataDir: deps.dataDir, box: deps.box, log: deps.log };
    this.passwordDeps = { ...this.deps, mailer: deps.mailer, limiter: deps.limiter };
    this.twoFactor = new TwoFactor(this.passwordDeps);
    this.sender = createTelegramSender(deps.telegram.botToken, deps.db, deps.now);
    this.botName = deps.telegram.botName;
    this.webhookSecretDigest = sha256Hex(deps.telegram.webhookSecret);
    this.events = deps.events;
    this.mailer = deps.mailer;
    this.publicUrl = deps.publicUrl;
  }

  // ---- jobs -----------------------------------------------------------------------------------

  /** Subscribe the Telegram and email notifiers and prune expired codes now and every hour. */
  start(): void {
    if (this.jobs) return;
    const { db, log, now } = this.deps;
    const stopNotifiers = [
      startTelegramNotifier({ db, events: this.events, sender: this.sender, log }),
      // The profile's email subscription: payment status changes by mail (SMTP or the outbox).
      startEmailNotifier({ db, events: this.events, mailer: this.mailer, log, publicUrl: this.publicUrl }),
    ];
    const prune = () => pruneProfileData(db, now()).catch((err: unknown) => log.error({ err }, 'profile prune failed'));
    void prune();
    const timer = setInterval(prune, PRUNE_EVERY_MS);
    timer.unref();
    this.jobs = { timer, stopNotifiers };
  }

  stop(): void {
    const jobs = this.jobs;
    if (!jobs) return;
    clearInterval(jobs.timer);
    for (const stop of jobs.stopNotifiers) stop();
    this.jobs = null;
  }

  // ---- personal data and avatar ---------------------------------------------------------------

  getProfile(userId: number) {
    return getProfile(this.deps, userId);
  }

  updatePersonalData(userId: number, patch: PersonalDataPatch) {
    return updatePersonalData(this.deps, userId, patch);
  }

  /** Store a new avatar (re-encoded); answers its URL. */
  saveAvatar(userId: number, upload: Buffer): Promise<string> {
    return saveAvatar(this.deps, userId, upload);
  }

  /** The bytes of a stored avatar; NotFound for an unknown or malformed name. */
  async readAvatar(file: string): Promise<Buffer> {
    const data = await readAvatar(this.deps.dataDir, file);
    if (!data) throw new NotFound(ErrorText.notFound);
    return data;
  }

  // ---- password and two-factor ----------------------------------------------------------------

  changePassword(claims: AccessClaims, input: ChangePasswordInput): Promise<void> {
    return changePassword(this.passwordDeps, claims, input);
  }

  enableTwoFactor(userId: number) {
    return this.twoFactor.enable(userId);
  }

  /** Turn two-factor on; answers the new recovery codes (shown once). */
  verifyTwoFactor(userId: number, code: string): Promise<string[]> {
    return this.twoFactor.verify(userId, code);
  }

  /** A fresh set of recovery codes (a current TOTP code confirms); the old set dies. */
  regenerateRecoveryCodes(userId: number, code: string): Promise<string[]> {
    return this.twoFactor.regenerateRecoveryCodes(userId, code);
  }

  recoveryCodesStatus(userId: number) {
    return this.twoFactor.recoveryCodesStatus(userId);
  }

  disableTwoFactor(userId: number, code: string): Promise<void> {
    return this.twoFactor.disable(userId, code);
  }

  /** The second step of a login with two-factor on: the user whose challenge and code they are. */
  completeTwoFactorLogin(challenge: string, factor: SecondFactor): Promise<number> {
    return this.twoFactor.completeLogin(challenge, factor);
  }

  // ---- documents ------------------------------------------------------------------------------

  uploadDocument(userId: number, type: DocumentType, files: UploadedFile[]) {
    return uploadDocument(this.deps, userId, type, files);
  }

  listDocuments(userId: number) {
    return listDocuments(this.deps, userId);
  }

  /** The owner's document; NotFound otherwise. */
  async getDocument(userId: number, id: number) {
    const document = await getDocument(this.deps, userId, id);
    if (!document) throw new NotFound(ProfileText.documentNotFound);
    return document;
  }

  readDocumentFile(userId: number, documentId: number, fileId: number) {
    return readDocumentFile(this.deps, userId, documentId, fileId);
  }

  deleteDocument(userId: number, id: number): Promise<void> {
    return deleteDocument(this.deps, userId, id);
  }

  /**
   * The socket push of a `document.status` event (document_status_update), or null when the
   * event's status is unknown (logged). The document may be gone (deleted right after); the
   * event's status is still news.
   */
  async documentStatusUpdate(event: DomainEvent<'document.status'>): Promise<DocumentStatusUpdateEvent | null> {
    const reason = await rejectionReasonOf(this.deps, event.payload.document_id);
    const parsed = v.safeParse(DocumentStatusUpdateEventSchema, {
      document: { id: event.payload.document_id, status: event.payload.status, rejection_reason: reason },
    });
    if (!parsed.success) {
      this.deps.log.warn({ event }, 'document.status event with an unknown status');
      return null;
    }
    return parsed.output;
  }

  // ---- telegram -------------------------------------------------------------------------------

  createTelegramLink(userId: number) {
    return createLinkCode(this.deps, this.botName, userId);
  }

  telegramLinkStatus(userId: number) {
    return linkStatus(this.deps, this.botName, userId);
  }

  unlinkTelegram(userId: number) {
    return unlink(this.deps, this.sender, this.botName, userId);
  }

  /** Telegram authenticates its webhook calls with the secret given to setWebhook; anything else is 401. */
  checkWebhookSecret(given: unknown): void {
    if (typeof given !== 'string' || !constantTimeEqual(sha256Hex(given), this.webhookSecretDigest)) throw unauthenticated();
  }

  handleTelegramUpdate(update: TelegramUpdate) {
    return handleTelegramUpdate(this.deps, this.sender, update);
  }
}
