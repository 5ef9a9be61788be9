/** @jsxImportSource preact */

/** Errors of a form, by field name ("form" for the whole form). */
export type FieldErrors = Record<string, string>;

/**
 * Errors shown next to their field: `invalid` marks the control (aria-invalid, described by the
 * message), `message` is the text under it.
 */
export function fieldErrors(scope: string, errors: FieldErrors) {
  const id = (name: string) => `${scope}-${name}-error`;
  return {
    invalid: (name: string): { "aria-invalid"?: boolean; "aria-describedby"?: string } =>
      errors[name] ? { "aria-invalid": true, "aria-describedby": id(name) } : {},
    message: (name: string) =>
      errors[name] ? (
        <span id={id(name)} class="field-error">
          {errors[name]}
        </span>
      ) : null,
  };
}
