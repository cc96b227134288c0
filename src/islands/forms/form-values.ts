// Reading what a form's fields hold.

/** A text field's value, trimmed; undefined when it is missing or holds only spaces. */
export function filledText(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}
