// What is wrong with each field of a form, said beside the field (issue 22, item 6): first what
// the browser can check before sending (required, e-mail form, length, the field's own pattern),
// then what the server answered (`fields` of a 400 invalid_request, by the field's name). Focus
// moves to the first field with a problem. Words for the sign-up and password fields follow the
// spec's reset-password messages (section 2.7), so one form speaks like the others.
import type { ApiFailure } from "../../client/call-types.ts";

/** A problem per field name. */
export type FieldErrors = Record<string, string>;

type Field = HTMLInputElement | HTMLSelectElement;

function fieldsOf(form: HTMLFormElement): Field[] {
  return Array.from(form.elements).filter(
    (el): el is Field =>
      (el instanceof HTMLInputElement || el instanceof HTMLSelectElement) && el.name !== "",
  );
}

/** Our words for what the browser's own checks found (never its own localised text). */
function describe(field: Field): string {
  const v = field.validity;
  if (v.valueMissing) return "You can't leave this empty.";
  if (v.typeMismatch && field.type === "email") {
    return "Enter an e-mail address such as name@example.com.";
  }
  if (v.tooShort && field.type === "password") {
    return `Short passwords are easy to guess. Try one with at least ${(field as HTMLInputElement).minLength} characters.`;
  }
  if (v.tooShort) return `Use at least ${(field as HTMLInputElement).minLength} characters.`;
  // A field with its own rule (pattern) says it in its data-problem attribute.
  return field.dataset.problem ?? "Check this field.";
}

/** What the browser finds wrong before anything is sent. */
export function checkFields(form: HTMLFormElement): FieldErrors {
  const out: FieldErrors = {};
  for (const field of fieldsOf(form)) {
    if (!field.validity.valid) out[field.name] = describe(field);
  }
  return out;
}

/** The server's answer, field by field (its paths are the fields' names). */
export function serverFieldErrors(failure: ApiFailure | null | undefined): FieldErrors {
  const out: FieldErrors = {};
  for (const { path, message } of failure?.fields ?? []) out[path] = message;
  return out;
}

/** Moves focus to the first field of `form` (in its order) that has a problem. */
export function focusFirstProblem(form: HTMLFormElement | null, errors: FieldErrors): void {
  if (!form) return;
  fieldsOf(form)
    .find((field) => errors[field.name] !== undefined)
    ?.focus();
}

/** The attributes that tie a field to its message: read as the field's description. */
export function problemProps(errors: FieldErrors, name: string, id: string) {
  return errors[name] === undefined
    ? {}
    : { "aria-invalid": true as const, "aria-describedby": `${id}-problem` };
}

/** The message beside a field (nothing when the field is fine). */
export function FieldProblem({
  errors,
  name,
  id,
}: {
  errors: FieldErrors;
  name: string;
  id: string;
}) {
  const text = errors[name];
  return text === undefined ? null : (
    <p id={`${id}-problem`} className="field-error">
      {text}
    </p>
  );
}
