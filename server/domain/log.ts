/**
 * The logger an area is handed: the server's (Fastify's pino logger satisfies it) or the
 * operator CLI's (messages to stderr). Areas declare it in their deps instead of taking the
 * framework's type.
 */
export interface DomainLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}
