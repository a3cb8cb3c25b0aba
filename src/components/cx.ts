/** Joins class names, skipping falsy ones: cx('btn', isActive && 'btn-active'). */
export function cx(...parts: Array<string | false | null | undefined>): string {
  return parts.filter(Boolean).join(' ');
}
