/** A value to copy (a one-time link, an initial password): a labelled, read-only, selectable field. */
export function ReadOnlyField({ label, value }: { label: string; value: string }) {
  return (
    <label className="console-readonly">
      <span>{label}</span>
      <input readOnly value={value} onFocus={(e) => e.currentTarget.select()} />
    </label>
  );
}
